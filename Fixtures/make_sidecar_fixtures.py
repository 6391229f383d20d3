#!/usr/bin/env python3
"""Writes Fixtures/sidecars/: pictures without dates of their own, beside the sidecars that
date them (docs/dates.md, "Sidecars"). Python 3 standard library only; deterministic (stored
deflate blocks, no timestamps); every file gets the modification time 2001-02-03T04:05:06Z.

    python3 Fixtures/make_sidecar_fixtures.py

Fixtures/README.md lists what each file exercises.
"""

import json
import os
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sidecars")
MTIME = 981173106  # 2001-02-03T04:05:06Z


def png(width=16, height=8):
    """A gray PNG with no metadata: IHDR, one IDAT of stored deflate blocks, IEND."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + b"\x80" * width for _ in range(height))
    stored = b"\x01" + struct.pack("<HH", len(raw), len(raw) ^ 0xFFFF) + raw  # one final stored block
    idat = b"\x78\x01" + stored + struct.pack(">I", zlib.adler32(raw) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


# darktable 4.x writes NAME.EXT.xmp, dates in EXIF's form, no offset (src/common/exif.cc).
DARKTABLE = """<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:exif="http://ns.adobe.com/exif/1.0/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:darktable="http://darktable.sf.net/"
   exif:DateTimeOriginal="2024:11:29 22:15:00"
   xmp:Rating="1"
   darktable:xmp_version="5"
   darktable:raw_params="0"
   darktable:auto_presets_applied="1">
   <darktable:history>
    <rdf:Seq/>
   </darktable:history>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
"""

# Lightroom Classic writes NAME.xmp for a raw: ISO 8601 with offsets, photoshop:DateCreated,
# GPS as XMP GPSCoordinate (DDD,MM.mmk), the Exif schema bound to its usual prefix.
LIGHTROOM = """<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000 1.000000, 0000/00/00-00:00:00        ">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
    xmlns:exif="http://ns.adobe.com/exif/1.0/"
   xmp:CreatorTool="Adobe Photoshop Lightroom Classic 13.0 (Windows)"
   xmp:CreateDate="2024-07-14T16:20:05.30+02:00"
   xmp:ModifyDate="2024-12-01T10:00:00+01:00"
   photoshop:DateCreated="2024-07-14T16:20:05.30+02:00"
   exif:DateTimeOriginal="2024-07-14T16:20:05.30+02:00"
   exif:GPSLatitude="48,51.504N"
   exif:GPSLongitude="2,17.67E"/>
 </rdf:RDF>
</x:xmpmeta>
"""


def takeout(title, seconds, lat=0.0, lon=0.0):
    """A Google Photos Takeout JSON as exported (keys in Google's order, timestamps as strings)."""
    doc = {
        "title": title,
        "description": "",
        "imageViews": "3",
        "creationTime": {"timestamp": "1733000000", "formatted": "Nov 30, 2024, 8:53:20 PM UTC"},
        "photoTakenTime": {"timestamp": str(seconds), "formatted": "(as Google formats it)"},
        "geoData": {"latitude": lat, "longitude": lon, "altitude": 0.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0},
        "geoDataExif": {"latitude": lat, "longitude": lon, "altitude": 0.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0},
        "url": "https://photos.google.com/photo/AF1Qip",
        "googlePhotosOrigin": {"mobileUpload": {"deviceType": "ANDROID_PHONE"}},
    }
    return json.dumps(doc, indent=2).encode() + b"\n"


LONG = "Holiday_in_the_mountains_with_the_whole_family_2019.jpg"  # 55 characters


def cut(stem):
    return stem[:46]  # Takeout keeps 46 characters before "(n).json"


FILES = {
    # XMP sidecars of two tools
    # Stand-in pictures (PNG bytes under raw names: photometa detects formats by content).
    "darktable/IMG_1234.CR2": png(),
    "darktable/IMG_1234.CR2.xmp": DARKTABLE.encode(),
    "lightroom/DSC_0042.NEF": png(),
    "lightroom/DSC_0042.xmp": LIGHTROOM.encode(),
    # Google Takeout: old and new JSON names, a long name cut short, a duplicate, an edited copy
    "takeout/holiday.jpg": png(),
    "takeout/holiday.jpg.json": takeout("holiday.jpg", 1563000000),
    "takeout/beach.png": png(),
    "takeout/beach.png.supplemental-metadata.json": takeout("beach.png", 1690000000, 43.5528, 7.0174),
    "takeout/beach(1).png": png(),
    "takeout/beach.png.supplemental-metadata(1).json": takeout("beach.png", 1690003600),
    "takeout/beach-edited.png": png(),
    "takeout/" + LONG: png(),
    "takeout/" + cut(LONG + ".supplemental-metadata") + ".json": takeout(LONG, 1566000000),
    # Not this picture's: the JSON's title names another file; not Takeout's; not JSON.
    "takeout/other.png": png(),
    "takeout/other.png.json": takeout("someone_else.png", 1500000000),
    "takeout/settings.png": png(),
    "takeout/settings.png.json": b'{"theme": "dark"}\n',
    "takeout/broken.png": png(),
    "takeout/broken.png.json": b'{"photoTakenTime": {"timestamp": "15',
}


def main():
    for rel, data in sorted(FILES.items()):
        path = os.path.join(ROOT, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (MTIME, MTIME))


if __name__ == "__main__":
    main()
