#include "CAllocator.h"

#include <malloc.h>

int pm_large_blocks_mapped(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
