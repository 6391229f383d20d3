"""The pictures of the thumbnail rows (Benchmarks/thumb_bench.py), made at bench time into the
bench folder (never committed) and replicated as copies.

Synthetic templates (issue 12; `templates`): the bench library's JPEGs hold no decodable image,
so libvips' `vips` tool and ffmpeg make a 12 MP JPEG with a 160x120 IFD1 preview, a 12 MP HEIC
without and one with a 320 px thumbnail item, a 1080x2400 PNG screenshot, a 1080p MP4, a 640x480
JPEG for the warm-cache set and a 48 MP JPEG, from smooth noise, without colour profiles.

Camera templates (issue 24; `camera_templates`): a real photo, resized and re-encoded by libvips,
with an ICC profile as cameras and phones embed one: sRGB (libvips' built-in profile, the
6,922-byte one it embeds itself) and Display P3 (built with LittleCMS by Fixtures/display_p3.py:
Debian ships no P3 profile), at 12 MP (3000x4000) and 48 MP (6000x8000). The photo is
`metadata-extractor-images/jpg/Nokia Lumia 800.jpg` of ../shared/corpus (a 2448x3264 phone photo;
that repository's README: "You are free to use these media files however you wish"; see the
corpus' SOURCES.md and MANIFEST.tsv). Its camera EXIF is replaced by a small one with a 120x160
IFD1 preview (the phone's own is 192x256, which would answer a 256 box without decoding: the rows
time the decode). The P3 template's values are the photo converted to Display P3 (relative
colorimetric), as an iPhone stores them; a 12 MP 8-bit HEIC (libheif's x265, quality 50) is made
from it with the same profile. Without the corpus the rows fall back, visibly (in the
log, the labels and the doc), to the synthetic 12 MP picture with the same profiles.
"""

import os
import shlex
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Fixtures"))

CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "corpus"))
CAMERA_PHOTO = "metadata-extractor-images/jpg/Nokia Lumia 800.jpg"


def sh(cmd):
    subprocess.run(["sh", "-c", cmd], check=True)


def exif_with_ifd1(thumb):
    """An APP1 Exif segment: IFD0 (Make, Orientation 1), a DateTimeOriginal, and an IFD1 JPEG
    preview `thumb` [EXIF 2.32 4.6.2], as cameras write them."""
    from make_fixtures import ASCII, EXIF_VERSION, LONG, RATIONAL, SHORT, Ref, app1_exif, build_tiff
    ifd1 = [(0x0103, SHORT, 6), (0x011A, RATIONAL, [(72, 1)]), (0x011B, RATIONAL, [(72, 1)]), (0x0128, SHORT, 2),
            (0x0201, LONG, Ref("thumb")), (0x0202, LONG, len(thumb))]
    tiff = build_tiff("II", ifd0=[(0x010F, ASCII, "bench"), (0x0112, SHORT, 1)],
                      exif=[EXIF_VERSION, (0x9003, ASCII, "2024:01:02 03:04:05")], ifd1=ifd1, blobs={"thumb": thumb})
    return app1_exif(tiff)


def app2_icc(icc):
    """The profile as APP2 ICC_PROFILE segments of at most 65,519 bytes of profile each [ICC.1 B.4]."""
    step = 65519
    chunks = [icc[i:i + step] for i in range(0, len(icc), step)]
    out = b""
    for n, c in enumerate(chunks, 1):
        body = b"ICC_PROFILE\0" + bytes([n, len(chunks)]) + c
        out += b"\xff\xe2" + struct.pack(">H", len(body) + 2) + body
    return out


def icc_of_jpeg(jpeg):
    """The ICC profile of a JPEG's APP2 segments (those before the scan)."""
    i, chunks = 2, []
    while i + 4 <= len(jpeg) and jpeg[i] == 0xFF and jpeg[i + 1] != 0xDA:
        n = struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        body = jpeg[i + 4:i + 2 + n]
        if jpeg[i + 1] == 0xE2 and body.startswith(b"ICC_PROFILE\0"):
            chunks.append((body[12], body[14:]))
        i += 2 + n
    return b"".join(c for _, c in sorted(chunks))


def srgb_icc(work):
    """libvips' built-in sRGB profile, as its savers embed it (`profile=srgb`)."""
    q = shlex.quote
    tiny = os.path.join(work, "tiny.jpg")
    sh("vips black %s 8 8 --bands 3" % q(os.path.join(work, "tiny.v")))
    sh("vips copy %s %s" % (q(os.path.join(work, "tiny.v")), q(tiny + "[profile=srgb]")))
    icc = icc_of_jpeg(open(tiny, "rb").read())
    if len(icc) < 128:
        raise SystemExit("bench: libvips embedded no sRGB profile")
    return icc


def camera_jpeg(plain, icc, dest, preview_side):
    """`plain` (a JPEG libvips wrote with strip) with camera-like APP1 Exif and APP2 ICC."""
    q = shlex.quote
    thumb = dest + ".ifd1.jpg"
    sh("vips thumbnail %s %s %d --height %d" % (q(plain), q(thumb + "[Q=80,strip]"), preview_side, preview_side))
    main = open(plain, "rb").read()
    with open(dest, "wb") as f:
        f.write(main[:2] + exif_with_ifd1(open(thumb, "rb").read()) + app2_icc(icc) + main[2:])
    os.remove(thumb)


def camera_templates(dest, synthetic12, log):
    """{"12_srgb", "12_p3", "48_srgb", "48_p3"} -> template path, and the source's description."""
    from display_p3 import display_p3_icc
    q = shlex.quote
    photo = os.path.join(CORPUS, CAMERA_PHOTO)
    real = os.path.isfile(photo)
    source = ("a real phone photo (../shared/corpus/%s, 2448x3264), resized by libvips" % CAMERA_PHOTO if real
              else "SYNTHETIC: ../shared/corpus is absent, so the 12 MP noise picture stands in for a photo")
    if not real:
        log("bench: warning: %s not found: the camera-JPEG rows use the synthetic picture instead" % photo)
    os.makedirs(dest, exist_ok=True)
    kind = "real" if real else "synthetic"
    names = {"%s_%s" % (mp, p): os.path.join(dest, "camera%smp-%s-%s.jpg" % (mp, p, kind))
             for mp in ("12", "48") for p in ("srgb", "p3")}
    names["12_p3_heic"] = os.path.join(dest, "camera12mp-p3-%s.heic" % kind)
    stamp = os.path.join(dest, "stamp-camera-v2-" + kind)
    if os.path.exists(stamp):
        return names, source
    log("bench: making camera-JPEG templates (%s) in %s" % (kind, dest))
    p3 = os.path.join(dest, "display-p3.icc")
    open(p3, "wb").write(display_p3_icc())
    profiles = {"srgb": srgb_icc(dest), "p3": open(p3, "rb").read()}
    for mp, scale in (("12", 1), ("48", 2)):
        v = os.path.join(dest, "camera%s.v" % mp)
        if real:  # 2448x3264 -> 3000x4000 and 6000x8000 (the same 3:4)
            sh("vips resize %s %s %.7f" % (q(photo), q(v), 3000.0 / 2448 * scale))
        else:
            sh("vips resize %s %s %d" % (q(synthetic12), q(v), scale))
        for p in ("srgb", "p3"):
            pixels = v
            if p == "p3":  # the photo's values as Display P3 (the photo itself has no profile: sRGB)
                pixels = v + ".p3.v"
                sh("vips icc_transform %s %s %s --input-profile srgb" % (q(v), q(pixels), q(p3)))
            plain = os.path.join(dest, "plain.jpg")
            sh("vips copy %s %s" % (q(pixels), q(plain + "[Q=90,strip]")))
            camera_jpeg(plain, profiles[p], names["%s_%s" % (mp, p)], 160)
            os.remove(plain)
    # As a phone's HEIC: 8 bits, the P3 profile (heifsave keeps it), no thumbnail item.
    sh("vips copy %s %s" % (q(names["12_p3"]), q(names["12_p3_heic"] + "[Q=50]")))
    for f in os.listdir(dest):
        if f.endswith(".v") or f.startswith("tiny"):
            os.remove(os.path.join(dest, f))
    open(stamp, "w").write(source + "\n")
    return names, source


def templates(dest, log):
    """The synthetic template files (issue 12), made once per bench directory."""
    os.makedirs(dest, exist_ok=True)
    stamp = os.path.join(dest, "stamp-v2")
    names = {"jpeg": "photo12mp.jpg", "heic": "photo12mp.heic", "heic_thmb": "photo12mp-thmb.heic",
             "png": "screen.png", "mp4": "clip1080.mp4", "small": "small.jpg", "big": "photo48mp.jpg"}
    paths = {k: os.path.join(dest, v) for k, v in names.items()}
    paths["plain"] = os.path.join(dest, "plain12mp.jpg")
    if os.path.exists(stamp):
        return paths
    log("bench: making thumbnail templates in %s" % dest)
    q = shlex.quote
    v = os.path.join(dest, "base.v")
    # Smooth noise in three bands: compresses like a photo, decodes at full cost.
    sh("vips gaussnoise %s 4000 3000 --mean 128 --sigma 60" % q(v + ".n.v"))
    sh("vips bandjoin '%s %s %s' %s" % (v + ".n.v", v + ".n.v", v + ".n.v", q(v + ".j.v")))
    sh("vips gaussblur %s %s 1.2" % (q(v + ".j.v"), q(v)))
    sh("vips copy %s %s" % (q(v), q(paths["plain"] + "[Q=90,strip]")))
    sh("vips thumbnail %s %s 160 --height 120" % (q(paths["plain"]), q(os.path.join(dest, "ifd1.jpg[Q=80,strip]"))))
    main = open(paths["plain"], "rb").read()
    thumb = open(os.path.join(dest, "ifd1.jpg"), "rb").read()
    with open(paths["jpeg"], "wb") as f:
        f.write(main[:2] + exif_with_ifd1(thumb) + main[2:])
    sh("vips copy %s %s" % (q(v), q(paths["heic"] + "[Q=50]")))
    # As phones write them: with a thumbnail item (iPhones store 320x240).
    sh("heif-enc -q 50 -t 320 -o %s %s >/dev/null" % (q(paths["heic_thmb"]), q(paths["plain"])))
    sh("vips crop %s %s 0 0 1080 2400" % (q(v + ".j.v"), q(os.path.join(dest, "screen.v"))))
    sh("vips copy %s %s" % (q(os.path.join(dest, "screen.v")), q(paths["png"])))
    sh("vips thumbnail %s %s 640 --height 480" % (q(paths["plain"]), q(paths["small"] + "[Q=85]")))
    sh("vips resize %s %s 2" % (q(v), q(os.path.join(dest, "big.v"))))
    sh("vips copy %s %s" % (q(os.path.join(dest, "big.v")), q(paths["big"] + "[Q=90]")))
    sh("ffmpeg -loglevel error -y -f lavfi -i testsrc=duration=10:size=1920x1080:rate=30 -pix_fmt yuv420p "
       "-c:v libx264 -preset veryfast %s" % q(paths["mp4"]))
    for f in os.listdir(dest):
        if f.endswith(".v"):
            os.remove(os.path.join(dest, f))
    open(stamp, "w").write("templates\n")
    return paths
