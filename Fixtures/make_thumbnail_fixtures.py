#!/usr/bin/env python3
"""Makes Fixtures/thumbnails: small pictures with real, decodable pixels for the thumbnail tests
(the library fixtures' image data is a 16x8 grey JPEG or no image at all).

Pixels come from libvips' command-line tool (`vips`, Debian libvips-tools) and the clip from
ffmpeg; the Display P3 profile from LittleCMS (Debian liblcms2-2, display_p3.py); the EXIF blocks
are built here with make_fixtures.py's TIFF builder, so every byte that matters is written on
purpose. Run `make thumbnail-fixtures`; the outputs are committed, so the
tests need neither tool. Fixtures/README.md says what each file is.
"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_fixtures import (ASCII, EXIF_VERSION, LONG, RATIONAL, SHORT, Ref, app1_exif, build_tiff,  # noqa: E402
                           gif_graphic_control, gif_header, gif_image, gif_netscape_loop, png_chunk)

OUT = os.path.join(HERE, "thumbnails")
W, H = 64, 48          # stored size of the orientation fixtures
MARK_W, MARK_H = 16, 12  # the red block in the stored top-left corner


def ppm(width, height, pixel):
    """A binary PPM [netpbm P6] with pixel(x, y) -> (r, g, b)."""
    rows = bytearray()
    for y in range(height):
        for x in range(width):
            rows += bytes(pixel(x, y))
    return b"P6 %d %d 255\n" % (width, height) + bytes(rows)


def marked(x, y):
    return (220, 20, 20) if x < MARK_W and y < MARK_H else (250, 250, 250)


def vips(args, data, suffix_in, suffix_out):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in" + suffix_in)
        dst = os.path.join(d, "out" + suffix_out)
        with open(src, "wb") as f:
            f.write(data)
        subprocess.run(["vips"] + [a.replace("IN", src).replace("OUT", dst) for a in args], check=True)
        with open(dst, "rb") as f:
            return f.read()


def jpeg_of(data_ppm, quality=90):
    return vips(["copy", "IN", "OUT[Q=%d,strip]" % quality], data_ppm, ".ppm", ".jpg")


def with_exif(jpeg, tiff):
    """The JPEG with an APP1 Exif block right after SOI [EXIF 2.32 4.5.4]."""
    assert jpeg[:2] == b"\xff\xd8"
    return jpeg[:2] + app1_exif(tiff) + jpeg[2:]


def oriented(n):
    """orient{n}.jpg: 64x48 stored, red block top-left as stored, EXIF Orientation n."""
    tiff = build_tiff("MM", ifd0=[(0x010F, ASCII, "photometa"), (0x0112, SHORT, n)],
                      exif=[EXIF_VERSION, (0x9003, ASCII, "2024:01:02 03:04:05")])
    return with_exif(jpeg_of(ppm(W, H, marked)), tiff)


def with_ifd1(main_w, main_h, thumb_w, thumb_h):
    """A main JPEG with an IFD1 JPEG thumbnail [EXIF 2.32 4.6.2, tags 0x0201/0x0202]: the main
    picture is blue with the red block, the thumbnail green (so a test sees which was used)."""
    main = jpeg_of(ppm(main_w, main_h, lambda x, y: (220, 20, 20) if x < main_w // 4 and y < main_h // 4 else (20, 20, 220)))
    thumb = jpeg_of(ppm(thumb_w, thumb_h, lambda x, y: (20, 200, 20)), quality=80)
    ifd1 = [(0x0103, SHORT, 6), (0x011A, RATIONAL, [(72, 1)]), (0x011B, RATIONAL, [(72, 1)]), (0x0128, SHORT, 2),
            (0x0201, LONG, Ref("thumb")), (0x0202, LONG, len(thumb))]
    tiff = build_tiff("II", ifd0=[(0x010F, ASCII, "photometa"), (0x0112, SHORT, 1)],
                      exif=[EXIF_VERSION, (0x9003, ASCII, "2024:01:02 03:04:05")], ifd1=ifd1, blobs={"thumb": thumb})
    return with_exif(main, tiff)


def alpha_png_direct():
    """A PNG written here [PNG 1.2]: 64x64, colour type 6 (RGBA), left half opaque red, right
    half transparent; zlib-compressed rows with filter 0."""
    import zlib
    rows = bytearray()
    for y in range(64):
        rows.append(0)
        for x in range(64):
            rows += bytes((220, 20, 20, 255)) if x < 32 else bytes((0, 0, 0, 0))
    ihdr = struct.pack(">IIBBBBB", 64, 64, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(bytes(rows))) \
        + png_chunk(b"IEND", b"")


def animated_gif(frames):
    """anim.gif: 16x16 frames, the first red (index 2 of make_fixtures' palette: black, white,
    red, blue), the others blue."""
    out = gif_header(16, 16) + gif_netscape_loop()
    for i in range(frames):
        out += gif_graphic_control(10) + gif_image(16, 16, [2 if i == 0 else 3] * 256)
    return out + b"\x3b"


def huge_png():
    """huge.png: an IHDR declaring 100000 x 100000 (10^10 pixels) and one tiny IDAT."""
    import zlib
    ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(b"\0" * 64)) \
        + png_chunk(b"IEND", b"")


def panorama_png():
    """panorama.png: a real 20000 x 10 grey picture (a strip wider than the 16384 px a side a
    thumbnail may have), whole and decodable: `--fill` keeps it whole and so cannot make it."""
    import zlib
    ihdr = struct.pack(">IIBBBBB", 20000, 10, 8, 0, 0, 0, 0)
    rows = b"".join(b"\0" + bytes([128]) * 20000 for _ in range(10))
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(rows, 9)) \
        + png_chunk(b"IEND", b"")


# A green that Display P3 and sRGB encode differently (inside both gamuts), for the colour
# fixtures: as P3 values it is sRGB (65, 182, 25) (LittleCMS, relative colorimetric).
P3_GREEN = (100, 180, 60)


def with_profile(icc_path, suffix, pixel, alpha=None):
    """A 64x48 picture of one colour, `pixel`, with the ICC profile at icc_path embedded (an
    APP2 ICC_PROFILE segment in JPEG [ICC.1 B.4], iCCP in PNG [PNG 1.2 4.2.2.4]); alpha adds an
    alpha band of that value. Through `vips copy`: a PPM carries no metadata, so the saver
    writes exactly the profile given."""
    if alpha is None:
        return vips(["copy", "IN", "OUT[Q=100,profile=%s]" % icc_path], ppm(W, H, lambda x, y: pixel), ".ppm", suffix)
    return vips(["bandjoin_const", "IN", "OUT[profile=%s]" % icc_path, str(alpha)], ppm(W, H, lambda x, y: pixel),
                ".ppm", suffix)


def colour_fixtures():
    """p3.jpg, p3_alpha.png, p3.heic (Display P3, display_p3.py; the HEIC lossless, from the
    JPEG, whose profile `vips copy` keeps: an iPhone photo's container and profile) and
    srgb.jpg (libvips' sRGB profile)."""
    from display_p3 import display_p3_icc
    with tempfile.TemporaryDirectory() as d:
        p3 = os.path.join(d, "p3.icc")
        open(p3, "wb").write(display_p3_icc())
        p3_jpg = with_profile(p3, ".jpg", P3_GREEN)
        return [("p3.jpg", p3_jpg),
                ("p3_alpha.png", with_profile(p3, ".png", P3_GREEN, alpha=200)),
                ("p3.heic", vips(["copy", "IN", "OUT[lossless]"], p3_jpg, ".jpg", ".heic")),
                ("srgb.jpg", with_profile("srgb", ".jpg", P3_GREEN))]


GREY = 120


def grey_with_rgb_profile():
    """grey_rgb_profile.jpg: a 64x48 greyscale JPEG of one grey (one band) that carries libvips'
    sRGB profile, as some editors and scanners write them: a profile of another colour space
    than the pixels'. Through `vips copy` of a PGM [netpbm P5]."""
    pgm = b"P5 %d %d 255\n" % (W, H) + bytes([GREY]) * (W * H)
    return vips(["copy", "IN", "OUT[Q=100,profile=srgb]"], pgm, ".pgm", ".jpg")


def declared_png(width, height, bits):
    """A PNG whose IHDR declares width x height RGB at `bits` bits a sample, and one tiny IDAT:
    what the decode budget counts is read from the header alone."""
    import zlib
    ihdr = struct.pack(">IIBBBBB", width, height, bits, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(b"\0" * 64)) \
        + png_chunk(b"IEND", b"")


def heic():
    """plain.heic: 64x48 HEVC (libheif's x265 through `vips heifsave`), no irot."""
    return vips(["copy", "IN", "OUT[Q=50,strip]"], ppm(W, H, marked), ".ppm", ".heic")


def avif():
    """plain.avif: the same 64x48 picture in AV1 (libheif's AV1 encoder through `vips heifsave`)."""
    return vips(["copy", "IN", "OUT[Q=40,strip,compression=av1]"], ppm(W, H, marked), ".ppm", ".avif")


def h264_clip(source):
    """An MP4 of ffmpeg's lavfi `source`: H.264 (libx264, veryfast, 4:2:0), bit-exact, no metadata."""
    with tempfile.TemporaryDirectory() as d:
        dst = os.path.join(d, "clip.mp4")
        subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", source,
                        "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "veryfast", "-map_metadata", "-1",
                        "-fflags", "+bitexact", "-flags:v", "+bitexact", dst], check=True)
        return open(dst, "rb").read()


def clip():
    """clip.mp4: 2 s of ffmpeg's test pattern, 64x48, H.264, 10 fps."""
    return h264_clip("testsrc=duration=2:size=64x48:rate=10")


def wide_clip():
    """wide.mp4: two seconds of a 1280x720 picture, blue on its left half and yellow on its right,
    H.264, 10 fps (a clip of one frame gives libffmpegthumbnailer 2.2.2 no frame: its decoder is
    never flushed): large enough that a small box makes the video path shrink the frame by a
    whole factor before resizing it (CVipsVideo.c, pm_video_box_shrink)."""
    return h264_clip("color=c=0x2050C0:s=1280x720:r=10:d=2,drawbox=x=640:y=0:w=640:h=720:color=0xE0C020:t=fill")


def rotated_clip(plain):
    """rotated.mp4: clip.mp4's stream with a 90-degree display matrix in its tkhd, as phones
    store portrait video [ISO 14496-12 8.3.2] (stored 64x48, shown 48x64)."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in.mp4")
        dst = os.path.join(d, "out.mp4")
        open(src, "wb").write(plain)
        subprocess.run(["ffmpeg", "-loglevel", "error", "-i", src, "-c", "copy", "-metadata:s:v:0", "rotate=90",
                        "-map_metadata", "-1", "-fflags", "+bitexact", dst], check=True)
        return open(dst, "rb").read()


def m2ts_clip(plain):
    """clip.m2ts: clip.mp4's stream in an MPEG transport stream of 192-byte packets (BDAV, as
    AVCHD's `.MTS`), remuxed without re-encoding."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in.mp4")
        dst = os.path.join(d, "out.m2ts")
        open(src, "wb").write(plain)
        subprocess.run(["ffmpeg", "-loglevel", "error", "-i", src, "-c", "copy", "-f", "mpegts", "-mpegts_m2ts_mode", "1",
                        "-map_metadata", "-1", "-fflags", "+bitexact", dst], check=True)
        return open(dst, "rb").read()


def mpeg_clip():
    """clip.mpg: 1 s of ffmpeg's test pattern, 64x48, MPEG-2 video in an MPEG program stream
    (as older cameras' `.MPG` and DVDs' `.VOB` hold it)."""
    with tempfile.TemporaryDirectory() as d:
        dst = os.path.join(d, "clip.mpg")
        subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x48:rate=25",
                        "-c:v", "mpeg2video", "-b:v", "100k", "-f", "vob", "-map_metadata", "-1",
                        "-fflags", "+bitexact", "-flags:v", "+bitexact", dst], check=True)
        return open(dst, "rb").read()


def legacy_clip(name, codec, fmt):
    """clip.flv, clip.wmv: 1 s of ffmpeg's test pattern, 64x48, in Flash Video (Sorensen
    Spark, as older OBS versions and Flash players' downloads hold it) or ASF (WMV 8, as
    Windows Movie Maker wrote it)."""
    with tempfile.TemporaryDirectory() as d:
        dst = os.path.join(d, name)
        subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x48:rate=25",
                        "-c:v", codec, "-b:v", "100k", "-f", fmt, "-map_metadata", "-1",
                        "-fflags", "+bitexact", "-flags:v", "+bitexact", dst], check=True)
        return open(dst, "rb").read()


def webm_clip():
    """clip.webm: 1 s of ffmpeg's test pattern, 64x48, VP8 in WebM, written to a pipe as a screen
    recorder does (Segment and Clusters of unknown size), with a creation time (Info/DateUTC)."""
    run = subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x48:rate=10",
                          "-c:v", "libvpx", "-b:v", "50k", "-metadata", "creation_time=2024-11-29T21:15:00Z",
                          "-fflags", "+bitexact", "-flags:v", "+bitexact", "-f", "webm", "pipe:"],
                         check=True, stdout=subprocess.PIPE)
    return run.stdout


def quicktime_clip(plain):
    """clip.mov: clip.mp4's stream in a QuickTime movie (`ftyp` brand `qt  `, video/quicktime)."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in.mp4")
        dst = os.path.join(d, "out.mov")
        open(src, "wb").write(plain)
        subprocess.run(["ffmpeg", "-loglevel", "error", "-i", src, "-c", "copy", "-map_metadata", "-1",
                        "-fflags", "+bitexact", dst], check=True)
        return open(dst, "rb").read()


def audio_only():
    """no_video.m4a: 1 s of a sine tone, AAC in MP4: a movie with no video track."""
    with tempfile.TemporaryDirectory() as d:
        dst = os.path.join(d, "a.m4a")
        subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac",
                        "-map_metadata", "-1", "-fflags", "+bitexact", dst], check=True)
        return open(dst, "rb").read()


def main():
    os.makedirs(OUT, exist_ok=True)
    files = [("orient%d.jpg" % n, oriented(n)) for n in range(1, 9)]
    clip_bytes = clip()
    files += [
        ("ifd1.jpg", with_ifd1(640, 480, 160, 120)),
        ("stale_ifd1.jpg", with_ifd1(640, 480, 160, 160)),
        ("alpha.png", alpha_png_direct()),
        ("anim.gif", animated_gif(3)),
        ("huge.png", huge_png()),
        ("panorama.png", panorama_png()),
        ("declared12mp.png", declared_png(4000, 3000, 8)),
        ("declared12mp16.png", declared_png(4000, 3000, 16)),
        ("plain.heic", heic()),
        ("plain.avif", avif()),
        ("clip.mp4", clip_bytes),
        ("rotated.mp4", rotated_clip(clip_bytes)),
        ("wide.mp4", wide_clip()),
        ("clip.mov", quicktime_clip(clip_bytes)),
        ("no_video.m4a", audio_only()),
        ("clip.webm", webm_clip()),
        ("clip.m2ts", m2ts_clip(clip_bytes)),
        ("clip.mpg", mpeg_clip()),
        ("clip.flv", legacy_clip("clip.flv", "flv1", "flv")),
        ("clip.wmv", legacy_clip("clip.wmv", "wmv2", "asf")),
    ]
    files += colour_fixtures()
    files.append(("grey_rgb_profile.jpg", grey_with_rgb_profile()))
    for name, data in files:
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        print("%7d  thumbnails/%s" % (len(data), name))


if __name__ == "__main__":
    main()
