/*
 * CVips: an embedded RGB profile converted to sRGB on the thumbnail, with LittleCMS transforms
 * made once per distinct profile. See include/CVips.h for the contract of each function, and
 * CVipsInternal.h for the ownership rule every file follows.
 *
 * Why not vips_thumbnail's export_profile: it builds a LittleCMS transform for every file
 * (vips_icc_transform), and building one that ends in libvips' sRGB profile inverts its
 * 1024-entry tone curves (cmsReverseToneCurveEx): about 10 ms a file, 10 % of the CPU of a
 * run over 12 MP camera JPEGs (perf, docs/performance.md), where the decode at 1/8 scale is
 * 45 ms. A batch of photos carries a handful of distinct profiles (one per camera or phone),
 * so the transform is made once per profile and kept. The conversion is the one libvips
 * makes (embedded profile to libvips' built-in sRGB, relative colorimetric, 8 bits, after
 * the shrink), so thumbnails look as before.
 */
#include "CVipsInternal.h"

#include <stdlib.h>

#include <lcms2.h>

/* Distinct profiles kept (cameras, phones, editors); past that, transforms are made and
 * dropped per file, as libvips does. */
#define PM_TRANSFORMS_MAX 32

typedef struct pm_transform {
    void *icc;      /* a copy of the profile's bytes: the key */
    size_t icc_len;
    int bands;      /* 3 (RGB) or 4 (RGB + alpha) */
    cmsHTRANSFORM transform; /* NULL when the profile is unusable or identity is TRUE */
    gboolean identity;       /* the transform changes no value by more than 1 (an sRGB profile) */
} pm_transform;

static GMutex pm_colour_lock;
static pm_transform pm_transforms[PM_TRANSFORMS_MAX];
static int pm_transform_count;
static cmsHPROFILE pm_srgb;

/* libvips' built-in sRGB profile (what export_profile "srgb" used), opened once; LittleCMS'
 * own sRGB should libvips not give it. Under pm_colour_lock. */
static cmsHPROFILE
pm_srgb_profile(void)
{
    VipsBlob *blob = NULL;
    const void *data;
    size_t len;

    if (pm_srgb)
        return pm_srgb;
    if (vips_profile_load("srgb", &blob, NULL) == 0 && blob) {
        data = vips_blob_get(blob, &len);
        pm_srgb = cmsOpenProfileFromMem(data, (cmsUInt32Number) len);
        vips_area_unref(VIPS_AREA(blob));
    }
    else
        vips_error_clear();
    if (!pm_srgb)
        pm_srgb = cmsCreate_sRGBProfile();
    return pm_srgb;
}

/* True when the transform moves no value of a 17x17x17 grid by more than 1: the embedded
 * profile is sRGB in all but name (each vendor writes its own copy of sRGB, with tables or
 * parametric curves), and the pixels are left as they are. A matrix/TRC transform is smooth,
 * so the grid stands for the values between its points. */
static gboolean
pm_is_identity(cmsHTRANSFORM t, int bands)
{
    static const int steps = 17;
    unsigned char in[17 * 4], out[17 * 4];

    for (int r = 0; r < steps; r++)
        for (int g = 0; g < steps; g++) {
            for (int b = 0; b < steps; b++) {
                unsigned char *p = in + b * bands;

                p[0] = (unsigned char) VIPS_MIN(r * 16, 255);
                p[1] = (unsigned char) VIPS_MIN(g * 16, 255);
                p[2] = (unsigned char) VIPS_MIN(b * 16, 255);
                if (bands == 4)
                    p[3] = 255;
            }
            cmsDoTransform(t, in, out, (cmsUInt32Number) steps);
            for (int i = 0; i < steps * bands; i++)
                if (abs((int) in[i] - (int) out[i]) > 1)
                    return FALSE;
        }
    return TRUE;
}

/* The embedded profile is one LittleCMS can open and its colour space is the image's: grey
 * for a greyscale image, RGB for an RGB one, CMYK for CMYK [ICC.1:2010 7.2.6] (another
 * interpretation: left to libvips). libvips refuses to import pixels through a profile of
 * another space ("icc_transform: unable to load or find any compatible input profile"), which
 * ends the thumbnail: greyscale JPEGs that carry an RGB profile are real (an editor's export,
 * a scanner's). Such a profile describes nothing about these pixels, so they are shown as
 * they are, as pm_colour_to_srgb shows 8-bit RGB under an unusable profile. */
gboolean
pm_colour_profile_fits(VipsImage *header)
{
    const void *icc = NULL;
    size_t len = 0;
    cmsHPROFILE profile;
    cmsColorSpaceSignature space;

    if (vips_image_get_blob(header, VIPS_META_ICC_NAME, &icc, &len) != 0 || !icc || len == 0
        || len > UINT32_MAX) {
        vips_error_clear();
        return FALSE;
    }
    profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number) len);
    if (!profile)
        return FALSE;
    space = cmsGetColorSpace(profile);
    /* A profile that cannot be read in the intent libvips imports with (relative colorimetric)
     * is one libvips refuses too ("profile does not support relative input intent", then the
     * same "unable to load or find any compatible input profile"): a minimal grey profile
     * without its tone curve, as the sample library's DSC_0001.JPG carries. */
    gboolean usable = cmsIsIntentSupported(profile, INTENT_RELATIVE_COLORIMETRIC, LCMS_USED_AS_INPUT);
    cmsCloseProfile(profile);
    if (!usable)
        return FALSE;
    switch (vips_image_get_interpretation(header)) {
    case VIPS_INTERPRETATION_B_W:
    case VIPS_INTERPRETATION_GREY16:
        return space == cmsSigGrayData;
    case VIPS_INTERPRETATION_sRGB:
    case VIPS_INTERPRETATION_RGB:
    case VIPS_INTERPRETATION_RGB16:
    case VIPS_INTERPRETATION_scRGB:
        return space == cmsSigRgbData;
    case VIPS_INTERPRETATION_CMYK:
        return space == cmsSigCmykData;
    default:
        return TRUE;
    }
}

/* Fills *e for the profile (icc, len) and pixels of `bands` bands: the transform, or
 * identity, or neither (a profile LittleCMS cannot open, or not an RGB one: the pixels are
 * then left as they are, as a viewer without colour management shows them). Under
 * pm_colour_lock (cmsCreateTransform is thread-safe; the lock keeps one build per profile). */
static void
pm_transform_build(pm_transform *e, const void *icc, size_t len, int bands)
{
    cmsHPROFILE in = cmsOpenProfileFromMem(icc, (cmsUInt32Number) len);
    cmsHPROFILE out = pm_srgb_profile();
    cmsUInt32Number format = bands == 4 ? TYPE_RGBA_8 : TYPE_RGB_8;

    e->bands = bands;
    e->transform = NULL;
    e->identity = FALSE;
    /* NOCACHE: the transform is shared by the threads (LittleCMS' one-pixel cache is not);
     * COPY_ALPHA: the alpha band passes through. The intent is libvips' default. */
    if (in && out && cmsGetColorSpace(in) == cmsSigRgbData)
        e->transform = cmsCreateTransform(in, format, out, format, INTENT_RELATIVE_COLORIMETRIC,
                                          cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA);
    if (in)
        cmsCloseProfile(in);
    if (e->transform && pm_is_identity(e->transform, bands)) {
        cmsDeleteTransform(e->transform);
        e->transform = NULL;
        e->identity = TRUE;
    }
}

/* The kept entry for (icc, len, bands), made now if new; NULL when the table is full (then
 * *scratch is filled, and the caller deletes its transform). */
static const pm_transform *
pm_transform_for(const void *icc, size_t len, int bands, pm_transform *scratch)
{
    const pm_transform *found = NULL;

    g_mutex_lock(&pm_colour_lock);
    for (int i = 0; i < pm_transform_count && !found; i++) {
        const pm_transform *e = &pm_transforms[i];

        if (e->bands == bands && e->icc_len == len && memcmp(e->icc, icc, len) == 0)
            found = e;
    }
    if (!found && pm_transform_count < PM_TRANSFORMS_MAX) {
        pm_transform *e = &pm_transforms[pm_transform_count];

        pm_transform_build(e, icc, len, bands);
        e->icc = g_memdup2(icc, len);
        e->icc_len = len;
        pm_transform_count++;
        found = e;
    }
    else if (!found)
        pm_transform_build(scratch, icc, len, bands);
    g_mutex_unlock(&pm_colour_lock);
    return found;
}

/* Converts the thumbnail *image (in memory, 8-bit RGB or RGBA) to sRGB from the profile
 * (icc, len), a copy taken from the file's header. Not the thumbnail's own profile: libvips
 * 8.14's HEIF loader attaches libheif's buffer to the image without copying it, so once the
 * loader has let go of the file it points at freed memory, and an iPhone HEIC's thumbnail was
 * left in Display P3 in most runs (LittleCMS could not open the garbage). On success *image
 * is the converted image (or the same one when there is nothing to do); on failure *image is
 * released. */
int
pm_colour_to_srgb(VipsImage **image, const void *icc, size_t len, char *err, size_t err_len)
{
    int bands = vips_image_get_bands(*image);
    int width = vips_image_get_width(*image);
    int height = vips_image_get_height(*image);
    pm_transform scratch = { 0 };
    const pm_transform *e;
    cmsHTRANSFORM t;
    VipsImage *next;
    unsigned char *pixels;
    size_t size;

    if (!icc || len == 0)
        return PM_OK;
    if (vips_image_get_format(*image) != VIPS_FORMAT_UCHAR || (bands != 3 && bands != 4)
        || !vips_image_get_data(*image)) {
        pm_set_error(err, err_len, "colour conversion: not an 8-bit RGB image in memory");
        VIPS_UNREF(*image);
        return PM_ERR_DECODE;
    }
    e = pm_transform_for(icc, len, bands, &scratch);
    t = e ? e->transform : scratch.transform;
    if (!t)
        return PM_OK; /* identity, or a profile that cannot be used */
    /* width, height and bands are a thumbnail's (at most PM_MAX_THUMB_SIDE squared, 4 bands). */
    size = (size_t) width * (size_t) height * (size_t) bands;
    pixels = g_malloc(size);
    for (int y = 0; y < height; y++)
        cmsDoTransform(t, VIPS_IMAGE_ADDR(*image, 0, y), pixels + (size_t) y * width * bands,
                       (cmsUInt32Number) width);
    if (!e)
        cmsDeleteTransform(scratch.transform);
    next = vips_image_new_from_memory_copy(pixels, size, width, height, bands, VIPS_FORMAT_UCHAR);
    g_free(pixels);
    VIPS_UNREF(*image);
    if (!next) {
        pm_take_vips_error(err, err_len, "colour conversion failed");
        return PM_ERR_DECODE;
    }
    next->Type = VIPS_INTERPRETATION_sRGB;
    *image = next;
    return PM_OK;
}
