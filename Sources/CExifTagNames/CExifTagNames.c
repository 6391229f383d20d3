/* libexif's tag-name lookups, remembered.
 *
 * Why: exif_data_load_data looks each entry's tag up in libexif's tag table twice, with a
 * search of the table each time. One lookup is the "known tag" check of
 * exif_data_load_data_content (exif-data.c); the other, exif_tag_get_name, is an argument of
 * the DEBUG log line of exif_data_load_data_entry ("Loading entry 0x%x ('%s')..."), evaluated
 * whether or not anyone listens. Together they were an eighth of the instructions of
 * `inspect` on camera JPEGs (docs/performance.md, "The sixth pass").
 *
 * How: libexif calls both functions through its PLT (they are exported, and libexif is not
 * linked with -Bsymbolic), so a program that defines them is asked instead: the dynamic
 * linker binds libexif's calls to the executable's definitions, as it does for malloc. Each
 * answer is libexif's own (its function, found with dlsym(RTLD_NEXT)), asked once per tag and
 * IFD and then remembered. Both functions are pure: they return a pointer into libexif's
 * static tag table (names are not translated), so the remembered pointer is the one libexif
 * would return, and every decision libexif makes with it is unchanged. Nothing here reads a
 * tag's value: decoding stays libexif's.
 *
 * Threads: the table is written and read with relaxed atomics. Two threads that ask for the
 * same name at once both ask libexif and store the same pointer. The count of remembered
 * answers is the calling thread's own. */
#define _GNU_SOURCE
#include "CExifTagNames.h"
#include <dlfcn.h>
#include <stddef.h>

typedef const char *(*photometa_name_in_ifd)(ExifTag, ExifIfd);
typedef const char *(*photometa_name)(ExifTag);

/* Tags are 16 bits [EXIF 2.32 4.6.2]; column 0 is exif_tag_get_name, column 1 + ifd is
 * exif_tag_get_name_in_ifd. Zero is "not asked yet"; a tag libexif does not know is stored as
 * `unknown`. 3 MiB of address space, zero until touched: only the pages of tags met are. */
enum { PHOTOMETA_NAME_COLUMNS = 1 + EXIF_IFD_COUNT };
static const char *remembered[0x10000][PHOTOMETA_NAME_COLUMNS];
static const char unknown[1];
/* Per thread, so that two decoding threads never share a counter's cache line. */
static __thread unsigned long hits;

static void *libexif_function(const char *symbol, void **slot) {
    void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!f) {
        f = dlsym(RTLD_NEXT, symbol);
        __atomic_store_n(slot, f, __ATOMIC_RELEASE);
    }
    return f;
}

static void *name_in_ifd_slot, *name_slot;

const char *photometa_exif_tag_name_from_libexif(ExifTag tag, ExifIfd ifd) {
    photometa_name_in_ifd f = (photometa_name_in_ifd)libexif_function("exif_tag_get_name_in_ifd", &name_in_ifd_slot);
    return f ? f(tag, ifd) : NULL;
}

unsigned long photometa_exif_tag_names_remembered(void) { return hits; }

/* The remembered answer in `column`, or libexif's (then remembered). */
static const char *remember(unsigned tag, unsigned column, const char *(*ask)(unsigned, unsigned), unsigned ifd) {
    const char *name = __atomic_load_n(&remembered[tag][column], __ATOMIC_RELAXED);
    if (name) {
        hits += 1;
        return name == unknown ? NULL : name;
    }
    name = ask(tag, ifd);
    __atomic_store_n(&remembered[tag][column], name ? name : unknown, __ATOMIC_RELAXED);
    return name;
}

static const char *ask_in_ifd(unsigned tag, unsigned ifd) {
    return photometa_exif_tag_name_from_libexif((ExifTag)tag, (ExifIfd)ifd);
}

static const char *ask_any_ifd(unsigned tag, unsigned ifd) {
    (void)ifd;
    photometa_name f = (photometa_name)libexif_function("exif_tag_get_name", &name_slot);
    return f ? f((ExifTag)tag) : NULL;
}

const char *exif_tag_get_name_in_ifd(ExifTag tag, ExifIfd ifd) {
    /* Outside the table (a tag value above 16 bits, an IFD past the last): libexif answers. */
    if ((unsigned)tag > 0xFFFF || (unsigned)ifd >= EXIF_IFD_COUNT) return ask_in_ifd((unsigned)tag, (unsigned)ifd);
    return remember((unsigned)tag, 1 + (unsigned)ifd, ask_in_ifd, (unsigned)ifd);
}

const char *exif_tag_get_name(ExifTag tag) {
    if ((unsigned)tag > 0xFFFF) return ask_any_ifd((unsigned)tag, 0);
    return remember((unsigned)tag, 0, ask_any_ifd, 0);
}
