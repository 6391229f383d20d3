#!/usr/bin/env python3
"""Makes the JPEG XL fixtures in Fixtures/formats/ with `cjxl` (Debian libjxl-tools; 0.7.0 made
the committed files): the inputs come from make_fixtures.py, so every byte of metadata is
written on purpose; cjxl writes the container, its Brotli-compressed `brob` boxes and the
codestream, as it does for a real photo.

    python3 Fixtures/make_jxl_fixtures.py

  formats/photo.jxl  cjxl's lossless transcoding of library/IMG_20240315_093012.jpg (EXIF and
                     XMP): the JXL container with `jxlp`, `jbrd`, and `brob` boxes holding the
                     Exif and xml boxes.
  formats/bare.jxl   cjxl -d 1 of a 100x50 grey PNG without metadata: a bare codestream (FF 0A).
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_fixtures import FORMATS, fixture_pixel7, png_gray  # noqa: E402


def cjxl(data, suffix, *args):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in" + suffix)
        dst = os.path.join(d, "out.jxl")
        with open(src, "wb") as f:
            f.write(data)
        subprocess.run(["cjxl", "--quiet", src, dst, *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(dst, "rb") as f:
            return f.read()


def main():
    files = [
        ("photo.jxl", cjxl(fixture_pixel7(), ".jpg", "--lossless_jpeg=1")),
        ("bare.jxl", cjxl(png_gray(100, 50, 8, lambda y: y * 5), ".png", "-d", "1")),
    ]
    for name, data in files:
        with open(os.path.join(FORMATS, name), "wb") as f:
            f.write(data)
        print("%7d  formats/%s" % (len(data), name))


if __name__ == "__main__":
    main()
