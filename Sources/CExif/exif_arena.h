#ifndef PHOTOMETA_CEXIF_ARENA_H
#define PHOTOMETA_CEXIF_ARENA_H
/*
 * A per-thread arena for libexif's allocations.
 *
 * libexif allocates every ExifData, content, entry, value and maker note through the ExifData's
 * ExifMem, with calloc by default, and frees them one by one [libexif exif-mem.c]: about a third
 * of a decode's CPU went to malloc and free (docs/performance.md, "libexif's allocations").
 * photometa's decodes allocate from an arena instead and drop it at once when the thread's last
 * ExifData is released.
 *
 * Two facts of libexif shape it:
 *  - the ExifMem callbacks take no context, so the arena is the thread's (a decode creates,
 *    reads and releases its ExifData on one thread);
 *  - libexif relies on calloc's zeroed memory (a new ExifData's private fields, a content's
 *    entry list), so every allocation is zeroed here too: a block's bytes past `used` are
 *    always zero (a new block comes from calloc; the kept block is zeroed, in one memset, as
 *    far as it was used, when the arena is emptied), so taking memory needs no memset.
 * Each allocation carries its usable size in front of it, for realloc, which doubles it (an
 * arena frees nothing until the decode ends, so growth by one must not keep every size). The
 * thread's blocks are freed when the thread ends (a pthread key's destructor); a few full-size
 * blocks are kept between decodes.
 */
#include <libexif/exif-data.h>
#include <libexif/exif-mem.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PHOTOMETA_EXIF_BLOCK ((size_t)64 * 1024)
#define PHOTOMETA_EXIF_HEADER ((size_t)16)
/* Full-size blocks a thread keeps between decodes: a camera JPEG's decode takes about two,
 * and a block made anew each time must be zeroed anew (calloc). */
#define PHOTOMETA_EXIF_SPARE 4

typedef struct photometa_exif_block {
    struct photometa_exif_block *next;
    size_t used, size;
    _Alignas(16) unsigned char bytes[];
} photometa_exif_block;

typedef struct {
    photometa_exif_block *head;   /* blocks in use, the newest first */
    photometa_exif_block *spare;  /* emptied full-size blocks, zeroed, for the next decodes */
    int spares;
    long live;       /* ExifData created and not yet released on this thread */
    int registered;  /* the thread-exit destructor knows this arena */
} photometa_exif_arena;

/* State lives in function-local statics: Swift emits the inline functions it calls, with their
 * local statics, but no definition for a header's file-scope variables. */
static inline photometa_exif_arena *photometa_exif_state(void) {
    static __thread photometa_exif_arena arena;
    return &arena;
}

static inline pthread_key_t *photometa_exif_key(void) {
    static pthread_key_t key;
    return &key;
}

static inline pthread_once_t *photometa_exif_once(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    return &once;
}

/* Whether photometa_exif_key() holds a key: when pthread_key_create fails, no thread's arena is
 * registered (its blocks then outlive the thread), rather than a value set on a key that may be
 * another library's. */
static inline int *photometa_exif_key_made(void) {
    static int made;
    return &made;
}

static inline void photometa_exif_free_blocks(photometa_exif_block *b, photometa_exif_block *keep) {
    while (b) {
        photometa_exif_block *next = b->next;
        if (b != keep) free(b);
        b = next;
    }
}

static void photometa_exif_thread_end(void *arena) {
    photometa_exif_arena *a = (photometa_exif_arena *)arena;
    photometa_exif_free_blocks(a->head, NULL);
    photometa_exif_free_blocks(a->spare, NULL);
    a->head = NULL;
    a->spare = NULL;
    a->spares = 0;
    /* Decoded again by a later thread-exit destructor: registered again, freed again. */
    a->registered = 0;
}

static void photometa_exif_make_key(void) {
    *photometa_exif_key_made() = pthread_key_create(photometa_exif_key(), photometa_exif_thread_end) == 0;
}

/* A block of at least `capacity` bytes, zeroed (every byte past `used` is); its usable size is
 * kept in front of it. */
static inline void *photometa_exif_take(size_t capacity) {
    photometa_exif_arena *a = photometa_exif_state();
    size_t need = (capacity + PHOTOMETA_EXIF_HEADER + 15) & ~(size_t)15;
    photometa_exif_block *b = a->head;
    if (!b || b->size - b->used < need) {
        photometa_exif_block *n;
        if (need <= PHOTOMETA_EXIF_BLOCK && a->spare) {
            n = a->spare;
            a->spare = n->next;
            a->spares -= 1;
        } else {
            size_t size = need > PHOTOMETA_EXIF_BLOCK ? need : PHOTOMETA_EXIF_BLOCK;
            n = (photometa_exif_block *)calloc(1, sizeof *n + size);
            if (!n) return NULL;
            n->used = 0;
            n->size = size;
        }
        n->next = b;
        a->head = b = n;
        if (!a->registered) {
            (void)pthread_once(photometa_exif_once(), photometa_exif_make_key);
            a->registered = *photometa_exif_key_made() && pthread_setspecific(*photometa_exif_key(), a) == 0;
        }
    }
    unsigned char *p = b->bytes + b->used;
    b->used += need;
    size_t usable = need - PHOTOMETA_EXIF_HEADER;
    memcpy(p, &usable, sizeof usable);
    return p + PHOTOMETA_EXIF_HEADER;
}

/* ds is 32 bits: no overflow on a 64-bit size_t. */
static inline void *photometa_exif_alloc(ExifLong ds) { return photometa_exif_take((size_t)ds); }

/* Growth doubles the block: libexif grows a content's entry list by one entry at a time, and an
 * arena that frees nothing would otherwise keep every size of it (a hostile IFD of 5,400
 * entries took 143 MB; doubling keeps twice the last size). */
static inline void *photometa_exif_realloc(void *old, ExifLong ds) {
    if (!old) return photometa_exif_take((size_t)ds);
    size_t had;
    memcpy(&had, (unsigned char *)old - PHOTOMETA_EXIF_HEADER, sizeof had);
    if ((size_t)ds <= had) return old;
    void *p = photometa_exif_take(2 * had > (size_t)ds ? 2 * had : (size_t)ds);
    if (p) memcpy(p, old, had);
    return p;
}

/* Freed with the arena. */
static inline void photometa_exif_free(void *p) { (void)p; }

/* The arena emptied once no ExifData of the thread is alive: up to PHOTOMETA_EXIF_SPARE
 * full-size blocks are zeroed, as far as they were used, and kept; the others freed. */
static inline void photometa_exif_arena_done(void) {
    photometa_exif_arena *a = photometa_exif_state();
    if (--a->live > 0) return;
    a->live = 0;
    photometa_exif_block *b = a->head;
    while (b) {
        photometa_exif_block *next = b->next;
        if (b->size == PHOTOMETA_EXIF_BLOCK && a->spares < PHOTOMETA_EXIF_SPARE) {
            memset(b->bytes, 0, b->used);
            b->used = 0;
            b->next = a->spare;
            a->spare = b;
            a->spares += 1;
        } else {
            free(b);
        }
        b = next;
    }
    a->head = NULL;
}

#if PHOTOMETA_EXIF_CALLOC
/* The fuzzing build (Fuzz/fuzz.sh) keeps libexif's own calloc and free, so that AddressSanitizer
 * sees every block libexif hands out, and a read past one. */
static inline ExifData *photometa_exif_data_new(void) { return exif_data_new(); }
static inline void photometa_exif_data_release(ExifData *data) { exif_data_unref(data); }
static inline ExifLog *photometa_exif_log_new(void) { return exif_log_new(); }
#else
/* A new ExifData whose memory comes from this thread's arena; release it on the same thread
 * with photometa_exif_data_release. NULL when memory ran out. */
static inline ExifData *photometa_exif_data_new(void) {
    photometa_exif_state()->live += 1;
    ExifMem *mem = exif_mem_new(photometa_exif_alloc, photometa_exif_realloc, photometa_exif_free);
    ExifData *data = mem ? exif_data_new_mem(mem) : NULL;
    exif_mem_unref(mem);
    if (!data) photometa_exif_arena_done();
    return data;
}

/* Releasing the arena releases every byte libexif took for the ExifData (its entries, values,
 * maker note, ExifMem, and a log made by photometa_exif_log_new), so exif_data_unref, which
 * would walk every entry to call a free that does nothing here, is not called: a twentieth of
 * a JPEG's decode (docs/performance.md, "The fourth pass"). */
static inline void photometa_exif_data_release(ExifData *data) {
    (void)data;
    photometa_exif_arena_done();
}

/* A log for an ExifData of this thread's arena, from the same arena: the ExifData keeps a
 * reference to its log, and both go when the arena is emptied. Make it after the ExifData. */
static inline ExifLog *photometa_exif_log_new(void) {
    ExifMem *mem = exif_mem_new(photometa_exif_alloc, photometa_exif_realloc, photometa_exif_free);
    ExifLog *log = mem ? exif_log_new_mem(mem) : NULL;
    exif_mem_unref(mem);
    return log;
}
#endif

#endif
