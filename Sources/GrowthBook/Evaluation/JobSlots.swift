/// Slots that jobs running at the same time fill, one slot each: no two
/// threads write the same memory, and the slots are read only once every job
/// is done (`DispatchQueue.concurrentPerform` returns), which is why it may
/// be shared without a lock.
final class JobSlots<Value: Sendable>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Value?>
    let count: Int

    init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        base.initialize(repeating: nil, count: count)
    }

    subscript(index: Int) -> Value? {
        get { base[index] }
        set { base[index] = newValue }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
