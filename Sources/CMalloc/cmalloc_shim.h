// SPDX-License-Identifier: Apache-2.0
// glibc's allocator controls (<malloc.h>), which the Glibc module does not include: malloc_trim gives
// the allocator's free memory back to the system.
#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H
#include <malloc.h>
#endif
