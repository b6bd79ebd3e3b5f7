// SPDX-License-Identifier: Apache-2.0
// Counts the calls into the C allocator made on one thread between a start and a stop. The benchmark
// executable defines the allocator's entry points itself (they pass on to glibc's), so every library it
// loads, the Swift runtime and libpulse included, allocates through them.
#pragma once

/// Starts counting the calling thread's allocations from zero.
void allocation_count_start(void);

/// Stops counting on the calling thread and returns the allocations made since the start: calls to
/// malloc, calloc, realloc and the aligned allocators.
long allocation_count_stop(void);
