#include "CAllocator.h"

#include <malloc.h>

int pm_large_blocks_mapped(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int pm_give_back_free_pages(void) { return malloc_trim(0); }
