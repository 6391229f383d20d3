#ifndef PHOTOMETA_CEXIFTAGNAMES_H
#define PHOTOMETA_CEXIFTAGNAMES_H
#include <libexif/exif-tag.h>

/* libexif's own exif_tag_get_name_in_ifd, reached past this target's remembering one (for the
 * test that compares the two over every tag and IFD). NULL when libexif could not be found. */
const char *photometa_exif_tag_name_from_libexif(ExifTag tag, ExifIfd ifd);

/* How many tag names this thread asked for were answered from what was remembered: more than
 * zero after a load proves libexif's calls reach this target (the symbols interpose). */
unsigned long photometa_exif_tag_names_remembered(void);

#endif
