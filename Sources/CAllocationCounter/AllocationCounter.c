// Counts heap allocations for benchmarks: an executable that links this
// defines malloc, calloc and realloc, so every library in the process calls
// these, which count and hand over to glibc's allocator (__libc_*). free is
// left to glibc: the memory is glibc's either way.
#include <stdatomic.h>
#include <stddef.h>
#include "CAllocationCounter.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

static atomic_ulong allocations;

void *malloc(size_t size) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return __libc_realloc(pointer, size);
}

unsigned long allocation_count(void) {
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}
