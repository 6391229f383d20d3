#!/usr/bin/env python3
"""Builds one seed folder per fuzz target from sample files (Python standard library only).

    python3 Fuzz/seeds.py OUT_DIR ROOT...

Every regular file under each ROOT is sorted by its magic number into the container targets
(`jpeg`, `png`, ... and `inspect`, which gets everything); EXIF blocks are cut out of JPEG APP1
segments, PNG eXIf and WebP EXIF chunks and TIFF heads for `exif` and `exif_app1`; XMP packets
are cut out of anything for `xmp`; file names feed `filename`. Hand-written seeds in
Fuzz/seeds/<target>.txt (one per line) are added, and so is every Fixtures/fuzz/<target>-* file,
so a run always replays the known findings first. Seeds are named by their SHA-1, so the same
bytes are kept once. Nothing here is committed: the folders are rebuilt at each run.
"""
import hashlib
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ["inspect", "jpeg", "png", "gif", "webp", "tiff", "heif", "quicktime", "matroska", "mpeg", "flv_asf", "jxl",
           "exif", "exif_app1", "xmp", "filename", "datetext", "previews"]
SKIP_EXT = {".json", ".tsv", ".md", ".py", ".sh", ".swift"}
MAX_SEED = 1 << 20          # bytes read from one sample file
EXIF_MAX = 0xFFFE - 6


def classify(head):
    if head[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[:4] == b"\x1a\x45\xdf\xa3":
        return "matroska"
    # MPEG transport streams (188- or 192-byte packets) and program streams (a pack header).
    if head[:1] == b"\x47" or head[4:5] == b"\x47" or head[:4] == b"\x00\x00\x01\xba":
        return "mpeg"
    # Flash Video ("FLV" 1) and ASF (the Header Object's GUID).
    if head[:4] == b"FLV\x01" or head[:16] == bytes.fromhex("3026b2758e66cf11a6d900aa0062ce6c"):
        return "flv_asf"
    if head[:12] == b"\0\0\0\x0cJXL \r\n\x87\n" or head[:2] == b"\xff\x0a":
        return "jxl"
    if head[:4] in (b"II*\0", b"MM\0*", b"IIU\0", b"IIRO", b"IIRS", b"MMOR"):
        return "tiff"
    if len(head) >= 12 and head[4:8] == b"ftyp":
        brands = [head[8:12]] + [head[i:i + 4] for i in range(16, min(len(head), struct.unpack(">I", head[:4])[0]) - 3, 4)]
        for b in brands:
            if b in (b"avif", b"avis", b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1", b"heif"):
                return "heif"
            if b in (b"qt  ", b"isom", b"iso2", b"mp41", b"mp42", b"avc1", b"M4V ", b"3gp4", b"3gp5", b"3gp6", b"dash"):
                return "quicktime"
        return "quicktime"
    if len(head) >= 8 and head[4:8] in (b"moov", b"mdat", b"wide", b"free", b"skip", b"pnot"):
        return "quicktime"
    return None


def exif_blocks(kind, data):
    """EXIF payloads (starting at the TIFF header) found in one file."""
    out = []
    if kind == "tiff":
        out.append(data[:EXIF_MAX])
    elif kind == "jpeg":
        pos = 2
        while pos + 4 <= len(data) and data[pos] == 0xFF:
            marker = data[pos + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                pos += 1 if marker == 0xFF else 2
                continue
            if marker in (0xD9, 0xDA):
                break
            length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
            body = data[pos + 4:pos + 2 + length]
            if marker == 0xE1 and body.startswith(b"Exif\0\0"):
                out.append(body[6:])
            pos += 2 + length
    elif kind == "png":
        pos = 8
        while pos + 8 <= len(data):
            length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
            if ctype == b"eXIf":
                out.append(data[pos + 8:pos + 8 + length])
            pos += 12 + length
    elif kind == "webp":
        pos = 12
        while pos + 8 <= len(data):
            ctype, length = struct.unpack("<4sI", data[pos:pos + 8])
            if ctype == b"EXIF":
                body = data[pos + 8:pos + 8 + length]
                out.append(body[6:] if body.startswith(b"Exif\0\0") else body)
            pos += 8 + length + (length & 1)
    else:
        # HEIF/QuickTime and others: look for a TIFF header after "Exif\0\0".
        for m in re.finditer(rb"Exif\0\0(II\*\0|MM\0\*)", data):
            out.append(data[m.start() + 6:m.start() + 6 + EXIF_MAX])
    return [b for b in out if len(b) >= 8]


XMP_RE = re.compile(rb"(<\?xpacket begin.*?<\?xpacket end[^>]*>|<x:xmpmeta.*?</x:xmpmeta>)", re.S)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out_dir, roots = sys.argv[1], sys.argv[2:]
    seen = {t: set() for t in TARGETS}

    def add(target, data):
        if not data:
            return
        digest = hashlib.sha1(data).hexdigest()
        if digest in seen[target]:
            return
        seen[target].add(digest)
        with open(os.path.join(out_dir, target, digest), "wb") as f:
            f.write(data)

    for t in TARGETS:
        os.makedirs(os.path.join(out_dir, t), exist_ok=True)
    for root in roots:
        if not os.path.isdir(root):
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in ("oracle", ".git"))
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                if os.path.splitext(name)[1].lower() in SKIP_EXT or not os.path.isfile(path) or os.path.islink(path):
                    continue
                add("filename", os.fsencode(name))
                with open(path, "rb") as f:
                    data = f.read(MAX_SEED)
                # Known findings replay on their own target.
                m = re.match(r"([a-z_]+)-", name)
                if os.path.basename(dirpath) == "fuzz" and m and m.group(1) in seen:
                    add(m.group(1), data)
                    add("inspect", data)
                    continue
                kind = classify(data[:64])
                add("inspect", data)
                if kind in ("jpeg", "tiff", "heif") or data[:16] == b"FUJIFILMCCD-RAW ":
                    add("previews", data)
                if kind:
                    add(kind, data)
                    for block in exif_blocks(kind, data):
                        add("exif", block)
                        add("exif_app1", block)
                for m in XMP_RE.finditer(data):
                    add("xmp", m.group(0)[:1 << 16])
    for t in TARGETS:
        listed = os.path.join(HERE, "seeds", t + ".txt")
        if os.path.exists(listed):
            with open(listed, "rb") as f:
                for line in f.read().split(b"\n"):
                    if line and not line.startswith(b"#"):
                        add(t, line.replace(b"\\0", b"\0"))
    for t in TARGETS:
        print("%s:%d" % (t, len(seen[t])))


if __name__ == "__main__":
    main()
