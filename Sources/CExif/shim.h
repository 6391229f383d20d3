#ifndef PHOTOMETA_CEXIF_SHIM_H
#define PHOTOMETA_CEXIF_SHIM_H
#include <libexif/exif-data.h>
#include <libexif/exif-content.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-log.h>
#include <libexif/exif-mnote-data.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-ifd.h>
#include "exif_arena.h"
#endif
