#ifndef C_ALLOCATION_COUNTER_H
#define C_ALLOCATION_COUNTER_H

/// Heap allocations (malloc, calloc, realloc) made by this process so far.
/// Linking this library into an executable routes those calls through a
/// counter before glibc's own allocator.
unsigned long allocation_count(void);

#endif
