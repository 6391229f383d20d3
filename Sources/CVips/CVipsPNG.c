/*
 * CVips: the tEXt chunks a PNG thumbnail carries, which libvips' saver cannot write.
 * See include/CVips.h for the contract of each function, and CVipsInternal.h for the
 * ownership rule every file follows.
 */
#include "CVipsInternal.h"

/* CRC-32 as PNG uses it (ISO 3309, reflected polynomial 0xEDB88320). Bitwise: it only
 * runs over our few short text chunks, so a table is not worth it. */
static uint32_t
pm_crc32(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void
pm_put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char) (v >> 24);
    p[1] = (unsigned char) (v >> 16);
    p[2] = (unsigned char) (v >> 8);
    p[3] = (unsigned char) v;
}

/* Inserts one tEXt chunk per key/value right after IHDR of the PNG in *buf (a g_malloc'd
 * buffer from vips_pngsave_buffer), replacing *buf and *len. Why not libvips: its
 * "png-comment-N-KEY" metadata is written only with strip=FALSE (which would also keep
 * ICC/XMP/EXIF) and, in 8.14's libpng saver, as compressed zTXt chunks, not the tEXt the
 * freedesktop thumbnail spec describes. Keys/values were validated by pm_check_text, so
 * each chunk is at most 12 + 79 + 1 + PM_MAX_TEXT_VALUE bytes and the sums cannot overflow.
 * Returns 0, or -1 if *buf is not a PNG starting with IHDR or memory runs out. */
int
pm_png_insert_text(void **buf, size_t *len, const pm_thumb_options *o)
{
    static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    static const unsigned char ihdr_head[8] = { 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
    /* signature, then IHDR: length(4) type(4) data(13) crc(4) */
    const size_t ihdr_end = 8 + 4 + 4 + 13 + 4;
    const unsigned char *in = *buf;
    unsigned char *out, *p;
    size_t extra = 0;

    if (*len < ihdr_end || memcmp(in, signature, 8) != 0 ||
        memcmp(in + 8, ihdr_head, 8) != 0)
        return -1;
    for (size_t i = 0; i < o->text_count; i++)
        extra += 12 + strlen(o->text_keys[i]) + 1 + strlen(o->text_values[i]);
    if (*len > SIZE_MAX - extra || !(out = g_try_malloc(*len + extra)))
        return -1;

    memcpy(out, in, ihdr_end);
    p = out + ihdr_end;
    for (size_t i = 0; i < o->text_count; i++) {
        size_t kl = strlen(o->text_keys[i]);
        size_t vl = strlen(o->text_values[i]);
        unsigned char *type = p + 4;

        pm_put_be32(p, (uint32_t) (kl + 1 + vl));
        memcpy(type, "tEXt", 4);
        memcpy(type + 4, o->text_keys[i], kl);
        type[4 + kl] = 0; /* keyword separator */
        memcpy(type + 4 + kl + 1, o->text_values[i], vl);
        pm_put_be32(type + 4 + kl + 1 + vl, pm_crc32(0, type, 4 + kl + 1 + vl));
        p = type + 4 + kl + 1 + vl + 4;
    }
    memcpy(p, in + ihdr_end, *len - ihdr_end);

    g_free(*buf);
    *buf = out;
    *len += extra;
    return 0;
}
