#!/usr/bin/env python3
"""Writes the crafted regression inputs of Fixtures/fuzz/ that are not fuzzer findings but
were built by hand to show a hole (Fixtures/fuzz/README.md says what each does). Python
standard library only; deterministic, so a re-run gives the same bytes.

    python3 Fixtures/make_regressions.py [OUTPUT_DIR]   (default: Fixtures/fuzz)
"""
import os
import struct
import sys
import zlib


def png_chunk(kind: bytes, data: bytes) -> bytes:
    # [PNG 1.2 5.3] length, type, data, CRC over type and data.
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_xmp_inflate_bomb(chunks: int = 100) -> bytes:
    """A 1x1 PNG with `chunks` compressed iTXt XML:com.adobe.xmp chunks of about 1 KB, each
    inflating to 1 MiB: the read budget counts compressed bytes, so only a budget on the
    inflated total keeps memory bounded (issue 13, item 2)."""
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    packet = (b"<x:xmpmeta xmlns:x='adobe:ns:meta/'>" + b" " * ((1 << 20) - 64)).ljust(1 << 20, b" ")[: 1 << 20]
    compressed = zlib.compress(packet, 9)
    itxt = b"XML:com.adobe.xmp\x00" + b"\x01\x00" + b"\x00" + b"\x00" + compressed
    idat = zlib.compress(b"\x00\x00")
    out = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
    for _ in range(chunks):
        out += png_chunk(b"iTXt", itxt)
    return out + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def tiff_entry(tag: int, typ: int, count: int, value: bytes) -> bytes:
    return struct.pack("<HHI", tag, typ, count) + value.ljust(4, b"\x00")[:4]


def jpeg_olympus_makernote_spin(entries: int = 300, entry_size: int = 60000) -> bytes:
    """A JPEG whose EXIF holds an Olympus maker note of `entries` entries with tag 0x0011, each
    UNDEFINED of `entry_size` bytes at the same offset (overlapping): asking libexif for the
    value of each costs seconds (issue 13, item 4; libexif issues #77, #227). Everything fits
    libexif's 64 KiB window."""
    # TIFF header, little endian; IFD0 at 8: Make "OLYMPUS", ExifIFD pointer.
    make = b"OLYMPUS\x00"
    ifd0_at = 8
    ifd0_size = 2 + 2 * 12 + 4
    make_at = ifd0_at + ifd0_size
    exif_at = make_at + len(make)
    exif_size = 2 + 1 * 12 + 4
    note_at = exif_at + exif_size
    # Olympus type 1 maker note: "OLYMP\0" + 2 bytes, then an IFD with offsets from the TIFF header.
    note_ifd = struct.pack("<H", entries)
    data_at = note_at + 8 + 2 + entries * 12 + 4
    for _ in range(entries):
        note_ifd += tiff_entry(0x0011, 7, entry_size, struct.pack("<I", data_at))
    note_ifd += b"\x00\x00\x00\x00"
    data = bytes((i * 7) & 0xFF for i in range(65000 - data_at - 16))
    note = b"OLYMP\x00\x01\x00" + note_ifd + data
    ifd0 = struct.pack("<H", 2) + tiff_entry(0x010F, 2, len(make), struct.pack("<I", make_at)) \
        + tiff_entry(0x8769, 4, 1, struct.pack("<I", exif_at)) + b"\x00\x00\x00\x00"
    exif_ifd = struct.pack("<H", 1) + tiff_entry(0x927C, 7, len(note), struct.pack("<I", note_at)) + b"\x00\x00\x00\x00"
    tiff = b"II*\x00" + struct.pack("<I", ifd0_at) + ifd0 + make + exif_ifd + note
    app1 = b"Exif\x00\x00" + tiff
    assert len(app1) + 2 <= 0xFFFF, len(app1)
    soi = b"\xff\xd8"
    seg = b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1
    # A minimal baseline frame so the file is a JPEG to every reader.
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 1, 1, 1) + b"\x01\x11\x00"
    return soi + seg + sof + b"\xff\xd9"


def datetext_int64_min_time() -> bytes:
    """Seconds -9223372036854775000 (big-endian Int64) and 0 ns: the file time that `touch -d
    @-9223372036854775000` sets on tmpfs, which trapped in LocalDateTime(secondsAsIfUTC:) and
    stopped inspect, suggest and watch (issue 13, item 1). The datetext fuzz target reads the
    first 12 bytes as seconds and nanoseconds."""
    return struct.pack(">qi", -9223372036854775000, 0)


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "fuzz")
    os.makedirs(out, exist_ok=True)
    files = {
        "png-xmp-inflate-bomb": png_xmp_inflate_bomb(),
        "jpeg-olympus-makernote-spin": jpeg_olympus_makernote_spin(),
        "datetext-int64-min-time": datetext_int64_min_time(),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
