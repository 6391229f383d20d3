"""A Display P3 ICC profile, built with LittleCMS (Debian liblcms2-2, which libvips already
depends on) through ctypes: Debian ships no Display P3 profile (colord-data, icc-profiles-free
and ghostscript's have sRGB, Adobe RGB, ProPhoto and others, not P3) and libvips 8.14 builds in
only sRGB and CMYK.

Display P3 is Apple's: the DCI-P3 primaries [SMPTE EG 432-1] with the D65 white point and the
sRGB transfer curve [IEC 61966-2-1], the profile iPhones and Macs embed in their photos.
LittleCMS adapts the colorants to the D50 connection space (Bradford) and writes the `chad` tag,
as an ICC v4 matrix/TRC profile [ICC.1:2010 8.3 (input), F.3 (chromatic adaptation)].

Used by make_thumbnail_fixtures.py (the committed p3.jpg) and Benchmarks/thumb_bench.py (the P3
bench templates, made at bench time).
"""
import ctypes
import ctypes.util
import struct


class _XyY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


class _Triple(ctypes.Structure):
    _fields_ = [("red", _XyY), ("green", _XyY), ("blue", _XyY)]


def _lcms():
    name = ctypes.util.find_library("lcms2") or "liblcms2.so.2"
    lib = ctypes.CDLL(name)
    lib.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
    lib.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
    lib.cmsCreateRGBProfile.restype = ctypes.c_void_p
    lib.cmsCreateRGBProfile.argtypes = [ctypes.POINTER(_XyY), ctypes.POINTER(_Triple), ctypes.c_void_p * 3]
    lib.cmsMLUalloc.restype = ctypes.c_void_p
    lib.cmsMLUalloc.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
    lib.cmsMLUsetASCII.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
    lib.cmsWriteTag.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
    lib.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
    lib.cmsMLUfree.argtypes = [ctypes.c_void_p]
    lib.cmsFreeToneCurve.argtypes = [ctypes.c_void_p]
    lib.cmsCloseProfile.argtypes = [ctypes.c_void_p]
    return lib


SIG_DESC = 0x64657363  # 'desc' [ICC.1:2010 9.2.41]
SIG_CPRT = 0x63707274  # 'cprt' [ICC.1:2010 9.2.21]


def display_p3_icc():
    """The profile's bytes (about 600), the same on every run (the header date is fixed)."""
    lib = _lcms()
    # The sRGB curve as ICC parametric type 3 (LittleCMS type 4): Y = (aX + b)^g above d, cX below.
    params = (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
    curve = lib.cmsBuildParametricToneCurve(None, 4, params)
    white = _XyY(0.3127, 0.3290, 1.0)
    primaries = _Triple(_XyY(0.680, 0.320, 1.0), _XyY(0.265, 0.690, 1.0), _XyY(0.150, 0.060, 1.0))
    profile = lib.cmsCreateRGBProfile(ctypes.byref(white), ctypes.byref(primaries), (ctypes.c_void_p * 3)(curve, curve, curve))
    for sig, text in ((SIG_DESC, b"Display P3 (photometa, LittleCMS)"), (SIG_CPRT, b"No copyright, use freely")):
        mlu = lib.cmsMLUalloc(None, 1)
        lib.cmsMLUsetASCII(mlu, b"en", b"US", text)
        lib.cmsWriteTag(profile, sig, mlu)
        lib.cmsMLUfree(mlu)
    size = ctypes.c_uint32(0)
    lib.cmsSaveProfileToMem(profile, None, ctypes.byref(size))
    buf = ctypes.create_string_buffer(size.value)
    lib.cmsSaveProfileToMem(profile, buf, ctypes.byref(size))
    lib.cmsCloseProfile(profile)
    lib.cmsFreeToneCurve(curve)
    data = bytearray(buf.raw[:size.value])
    # dateTimeNumber at offset 24 [ICC.1:2010 7.2.1]: fixed, so the bytes do not depend on the day.
    data[24:36] = struct.pack(">6H", 2024, 1, 1, 0, 0, 0)
    return bytes(data)


if __name__ == "__main__":
    import sys
    sys.stdout.buffer.write(display_p3_icc())
