#ifndef PHOTOMETA_CALLOCATOR_H
#define PHOTOMETA_CALLOCATOR_H

/// Blocks of `bytes` and more get their own mappings from glibc's malloc, given back to the
/// system when freed (mallopt(3) M_MMAP_THRESHOLD, which also turns its dynamic threshold
/// off). Returns 1 when set, 0 when refused. Not in Swift's Glibc module: <malloc.h>.
int pm_large_blocks_mapped(int bytes);

/// Gives the free pages of the heap back to the system (malloc_trim(3)); 1 when some were.
int pm_give_back_free_pages(void);

#endif
