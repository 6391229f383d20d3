#!/usr/bin/env python3
"""Regenerate the synthetic sample library in Fixtures/library/.

Usage:  python3 Fixtures/make_fixtures.py

Python 3 standard library only.  Every byte is built here (struct), nothing is
read from the network or from other tools, and there are no timestamps or
random numbers: running the script twice gives byte-identical files.  Even the
zlib streams inside the PNGs come from the tiny deflate encoder below rather
than from the zlib module, so the output does not depend on the zlib build.

See Fixtures/README.md for what each file holds and what it exercises.

Specifications quoted in the comments:
  [TIFF 6.0]          TIFF Revision 6.0 (Adobe, 1992)
  [EXIF 2.32]         CIPA DC-008-2019, Exif 2.32
  [T.81]              ITU-T T.81 / ISO 10918-1 (JPEG)
  [JFIF 1.02]         JPEG File Interchange Format 1.02
  [ICC.1]             ICC.1:2001-04 (profile header), Annex B.4 (JPEG embedding)
  [XMP-1] / [XMP-3]   ISO 16684-1 / Adobe XMP Specification Part 3 (storage in files)
  [PNG 1.2]           PNG Specification 1.2; [PNG-EXT 1.5] PNG Extensions 1.5.0 (eXIf)
  [RFC 1950/1951]     zlib / deflate
  [GIF89a]            GIF89a specification (numbered sections)
  [WebP container spec], [VP8 RFC 6386], [WebP lossless spec]
  [ISO 14496-12]      ISO base media file format (2015 numbering)
  [ISO 23008-12]      HEIF (2017 numbering); [AVIF 1.0] AV1 Image File Format
  [QTFF]              Apple QuickTime File Format Specification
  [RFC 8794] / [RFC 9559]  EBML / Matroska (also WebM)
"""

import calendar
import datetime
import os
import re
import struct
import zlib  # only crc32 / adler32 (pure arithmetic, identical everywhere)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "library")
FORMATS = os.path.join(HERE, "formats")
PAIRING = os.path.join(HERE, "pairing")

# Fixed modification time given to every generated file (git does not keep
# mtimes, so tests that need the "file time" fallback must set it themselves).
FIXED_MTIME = calendar.timegm((2001, 2, 3, 4, 5, 6))


# ---------------------------------------------------------------------------
# Hard-coded, known-valid payloads
# ---------------------------------------------------------------------------

# A 16x8 8-bit grayscale baseline JPEG (cjpeg -grayscale -baseline -optimize,
# JFIF APP0 removed): SOI, DQT, SOF0, DHT, DHT, SOS, entropy data, EOI.
# Decodes with djpeg.  Used as the main image of every JPEG fixture and as the
# IFD1 thumbnail.
BASE_JPEG = bytes.fromhex(
    "ffd8ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f"
    "141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d"
    "38323c2e333432ffc0000b080008001001011100ffc400150001010000000000"
    "0000000000000000000607ffc400231000010303020700000000000000000000"
    "01020411000522030612162123323341ffda0008010100003f0027b3acfebc6a"
    "a17dbb725ec67372d2c5f6ac3665d27bcb0615e246202970441e18fb5fffd9"
)

# A real VP8 key frame for a flat grey 320x240 picture (cwebp output, the
# payload of its "VP8 " chunk).  Decodes with dwebp.
VP8_320x240 = bytes.fromhex(
    "3016009d012a4001f0003f71b8dc65b4af2da7202802902e096900d8ccafb006"
    "1222211111110c888889a488886444444432222271222222191111110c88a048"
    "88888886444444432934432222222191111112d9110c88888886444444d24444"
    "32222222191111389111110c888888864450244444444322222221949a219111"
    "1110c88888896c888644444443222222692222191111110c88889c4888888644"
    "4444432228122222222191111110ca4d10c88888886444444430000000000000"
    "000000000000"
)

# A real VP8L (lossless) bitstream for a flat 100x50 picture (cwebp -lossless).
VP8L_100x50 = bytes.fromhex("2f63400c00459123fa1f")


def jpeg_sof0_size(jpeg):
    """(width, height) from the SOF0 segment [T.81 B.2.2]."""
    i = 2
    while i < len(jpeg):
        assert jpeg[i] == 0xFF
        marker = jpeg[i + 1]
        (length,) = struct.unpack(">H", jpeg[i + 2:i + 4])
        if marker == 0xC0:
            height, width = struct.unpack(">HH", jpeg[i + 5:i + 9])
            return width, height
        i += 2 + length
    raise ValueError("no SOF0")


JPEG_W, JPEG_H = jpeg_sof0_size(BASE_JPEG)
assert (JPEG_W, JPEG_H) == (16, 8)


def vp8_size(frame):
    """Check the VP8 key-frame header [VP8 RFC 6386 9.1, 19.1]."""
    tag = frame[0] | frame[1] << 8 | frame[2] << 16   # 3-byte frame tag, LE
    assert tag & 1 == 0                                # key_frame bit: 0 = key frame
    assert (tag >> 4) & 1 == 1                         # show_frame
    first_part_size = tag >> 5
    assert 10 + first_part_size <= len(frame)
    assert frame[3:6] == b"\x9d\x01\x2a"              # start code
    w, h = struct.unpack("<HH", frame[6:10])           # 14-bit size + 2-bit scale
    return w & 0x3FFF, h & 0x3FFF


def vp8l_size(stream):
    """Check the VP8L header [WebP lossless spec 3.1/3.2]."""
    assert stream[0] == 0x2F                           # signature
    bits = struct.unpack("<I", stream[1:5])[0]
    w = (bits & 0x3FFF) + 1                            # 14 bits: width - 1
    h = ((bits >> 14) & 0x3FFF) + 1                    # 14 bits: height - 1
    assert bits >> 29 == 0                             # 3-bit version 0
    return w, h


assert vp8_size(VP8_320x240) == (320, 240)
assert vp8l_size(VP8L_100x50) == (100, 50)


# ---------------------------------------------------------------------------
# TIFF / EXIF builder
# ---------------------------------------------------------------------------

# Field types [TIFF 6.0 p.15-16, EXIF 2.32 4.6.2]
BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED, SRATIONAL = 1, 2, 3, 4, 5, 7, 10


class Ref:
    """A LONG value that is an offset (from the TIFF header) known only at layout time."""

    def __init__(self, name):
        self.name = name


def _encode_value(bo, typ, value, refs):
    """Return (count, raw bytes) of one IFD entry value [TIFF 6.0 p.15-16]."""
    if typ == ASCII:                       # 7-bit ASCII, NUL-terminated, count includes NUL
        raw = value.encode("ascii") + b"\0"
        return len(raw), raw
    if typ in (BYTE, UNDEFINED):
        raw = bytes(value)
        return len(raw), raw
    if typ in (RATIONAL, SRATIONAL):       # value: list of (numerator, denominator)
        fmt = bo + ("II" if typ == RATIONAL else "ii")
        return len(value), b"".join(struct.pack(fmt, n, d) for n, d in value)
    values = value if isinstance(value, (list, tuple)) else [value]
    values = [refs.get(v.name, 0) if isinstance(v, Ref) else v for v in values]
    fmt = bo + {SHORT: "H", LONG: "I"}[typ]
    return len(values), b"".join(struct.pack(fmt, v) for v in values)


def build_tiff(order, ifd0, exif=None, gps=None, ifd1=None, blobs=None, prefix=b""):
    """Build a complete TIFF structure (header + IFDs + blobs).

    order: "II" (little-endian) or "MM" (big-endian) [TIFF 6.0 p.13, EXIF 2.32 4.5.2]
    ifd0/exif/gps/ifd1: lists of (tag, type, value)
    blobs: {name: bytes} stored after the IFDs; Ref(name) resolves to its offset.
    prefix: bytes (even length) stored between the header and IFD0, which then lies after them.

    Layout: header, IFD0 + its values, Exif IFD + values, GPS IFD + values,
    IFD1 + values, blobs.  Entries are sorted by tag and every value (and IFD)
    starts on a word (even) boundary [TIFF 6.0 p.15, EXIF 2.32 4.6.2].
    """
    bo = "<" if order == "II" else ">"
    ifd0 = list(ifd0)
    if exif:
        ifd0.append((0x8769, LONG, Ref("exif")))   # Exif IFD pointer [EXIF 2.32 4.6.3]
    if gps:
        ifd0.append((0x8825, LONG, Ref("gps")))    # GPS Info IFD pointer [EXIF 2.32 4.6.3]
    chain = [("ifd0", ifd0)]
    if exif:
        chain.append(("exif", exif))
    if gps:
        chain.append(("gps", gps))
    if ifd1:
        chain.append(("ifd1", ifd1))
    blobs = blobs or {}

    def serialize(refs):
        found = {}
        # Header: byte order, 42, offset of IFD0 [TIFF 6.0 p.13]
        # prefix: bytes between the header and IFD0 (image data written first).
        out = bytearray(order.encode("ascii") + struct.pack(bo + "HI", 42, 8 + len(prefix)) + prefix)
        for name, entries in chain:
            entries = sorted(entries, key=lambda e: e[0])
            tags = [e[0] for e in entries]
            assert len(tags) == len(set(tags)), "duplicate tag in " + name
            assert len(out) % 2 == 0
            found[name] = start = len(out)
            # IFD: 2-byte count, 12-byte entries, 4-byte next-IFD offset [EXIF 2.32 4.6.2]
            data_at = start + 2 + 12 * len(entries) + 4
            table = bytearray(struct.pack(bo + "H", len(entries)))
            data = bytearray()
            for tag, typ, value in entries:
                count, raw = _encode_value(bo, typ, value, refs)
                if len(raw) <= 4:          # fits: stored left-justified in the entry
                    field = raw.ljust(4, b"\0")
                else:                      # else: offset to the value
                    field = struct.pack(bo + "I", data_at + len(data))
                    data += raw
                    if len(data) % 2:
                        data += b"\0"      # word-align the next value
                table += struct.pack(bo + "HHI", tag, typ, count) + field
            # Only IFD0 links to a next IFD (IFD1, the thumbnail IFD) [EXIF 2.32 4.6.2]
            nxt = refs.get("ifd1", 0) if (name == "ifd0" and ifd1) else 0
            table += struct.pack(bo + "I", nxt)
            out += table + data
        for name, blob in blobs.items():
            found[name] = len(out)
            out += blob
            if len(out) % 2:
                out += b"\0"
        return bytes(out), found

    first, refs = serialize({})
    final, refs2 = serialize(refs)
    assert refs == refs2 and len(first) == len(final)
    return final


def tiff_resolution():
    """XResolution/YResolution 72 dpi, ResolutionUnit inch [EXIF 2.32 4.6.4]."""
    return [
        (0x011A, RATIONAL, [(72, 1)]),
        (0x011B, RATIONAL, [(72, 1)]),
        (0x0128, SHORT, 2),
    ]


EXIF_VERSION = (0x9000, UNDEFINED, b"0232")        # ExifVersion [EXIF 2.32 4.6.5]
GPS_VERSION = (0x0000, BYTE, [2, 3, 0, 0])         # GPSVersionID [EXIF 2.32 4.6.6]


def thumbnail_ifd1():
    """IFD1 describing a JPEG thumbnail [EXIF 2.32 4.6.2 (IFD1), 4.6.4 (tags 513/514)]."""
    return [
        (0x0103, SHORT, 6),                        # Compression = JPEG (thumbnail)
        (0x011A, RATIONAL, [(72, 1)]),
        (0x011B, RATIONAL, [(72, 1)]),
        (0x0128, SHORT, 2),
        (0x0201, LONG, Ref("thumb")),              # JPEGInterchangeFormat
        (0x0202, LONG, len(BASE_JPEG)),            # JPEGInterchangeFormatLength
    ]


def user_comment(text):
    """UserComment: 8-byte character code "ASCII\\0\\0\\0" + text [EXIF 2.32 4.6.5]."""
    return (0x9286, UNDEFINED, b"ASCII\0\0\0" + text.encode("ascii"))


# ---------------------------------------------------------------------------
# XMP
# ---------------------------------------------------------------------------

XMP_NS = {
    "xmp": "http://ns.adobe.com/xap/1.0/",
    "photoshop": "http://ns.adobe.com/photoshop/1.0/",
    "exif": "http://ns.adobe.com/exif/1.0/",
    "tiff": "http://ns.adobe.com/tiff/1.0/",
}


def xmp_packet(props):
    """A minimal XMP packet [XMP-1 7.3 packet wrapper] with simple properties
    written as attributes of one rdf:Description; props: list of ("ns:Name", value)."""
    prefixes = sorted({k.split(":")[0] for k, _ in props})
    ns = "".join('\n    xmlns:%s="%s"' % (p, XMP_NS[p]) for p in prefixes)
    attrs = "".join('\n    %s="%s"' % (k, v) for k, v in props)
    text = (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
        ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
        '  <rdf:Description rdf:about=""' + ns + attrs + "/>\n"
        " </rdf:RDF>\n"
        "</x:xmpmeta>\n"
        '<?xpacket end="w"?>'
    )
    return text.encode("utf-8")


# ---------------------------------------------------------------------------
# JPEG
# ---------------------------------------------------------------------------

def jpeg_segment(marker, payload):
    """Marker segment: FF xx, 2-byte length (incl. itself), payload [T.81 B.1.1.4]."""
    assert len(payload) + 2 <= 0xFFFF
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def app1_exif(tiff):
    """APP1 "Exif\\0\\0" + TIFF header/IFDs [EXIF 2.32 4.5.4, 4.7.2]."""
    return jpeg_segment(0xE1, b"Exif\0\0" + tiff)


def app1_xmp(packet):
    """APP1 "http://ns.adobe.com/xap/1.0/\\0" + packet [XMP-3 1.1.3]."""
    return jpeg_segment(0xE1, b"http://ns.adobe.com/xap/1.0/\0" + packet)


def app0_jfif():
    """APP0 JFIF 1.01, aspect ratio 1:1, no thumbnail [JFIF 1.02 p.5]."""
    return jpeg_segment(0xE0, b"JFIF\0" + struct.pack(">BBBHHBB", 1, 1, 0, 1, 1, 0, 0))


def icc_profile_gray():
    """A small ICC v2 profile: 128-byte header [ICC.1 6.1], tag table with one
    entry [ICC.1 6.2], and a copyrightTag of textType [ICC.1 6.4.13, 6.5.18]."""
    cprt = b"text" + b"\0" * 4 + b"Public Domain\0"
    cprt += b"\0" * (-len(cprt) % 4)                   # tag data is 4-byte aligned
    size = 128 + 4 + 12 + len(cprt)
    p = struct.pack(">I4sI4s4s4s", size, b"\0\0\0\0", 0x02100000, b"mntr", b"GRAY", b"XYZ ")
    p += struct.pack(">6H", 1998, 2, 9, 6, 49, 0)       # dateTimeNumber (as in the common sRGB profile)
    p += b"acsp" + b"\0" * 4                            # signature, platform
    p += struct.pack(">I", 0) + b"\0" * 8 + b"\0" * 8   # flags, manufacturer+model, attributes
    p += struct.pack(">I", 0)                           # rendering intent
    p += struct.pack(">iii", 63190, 65536, 54061)       # PCS illuminant D50 (s15Fixed16)
    p += b"\0" * 4 + b"\0" * 16 + b"\0" * 28            # creator, profile ID, reserved
    assert len(p) == 128
    p += struct.pack(">I4sII", 1, b"cprt", 128 + 4 + 12, len(cprt))
    return p + cprt


def app2_icc():
    """APP2 "ICC_PROFILE\\0" + chunk 1 of 1 + profile [ICC.1 B.4]."""
    return jpeg_segment(0xE2, b"ICC_PROFILE\0" + bytes([1, 1]) + icc_profile_gray())


def jpeg_with(*segments):
    """The base JPEG with segments spliced in directly after SOI [T.81 B.2.1]."""
    return BASE_JPEG[:2] + b"".join(segments) + BASE_JPEG[2:]


# ---------------------------------------------------------------------------
# Deflate / zlib (fixed Huffman codes + run-length matches at distance 1)
# ---------------------------------------------------------------------------

class BitWriter:
    """Packs bits least-significant-bit first (deflate [RFC 1951 3.1.1] and GIF LZW [GIF89a Appendix F])."""

    def __init__(self):
        self.acc = 0
        self.nbits = 0
        self.out = bytearray()

    def bits(self, value, count):
        self.acc |= value << self.nbits
        self.nbits += count
        while self.nbits >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.nbits -= 8

    def huffman(self, code, length):
        # Huffman codes are packed starting with their most significant bit [RFC 1951 3.1.1]
        self.bits(int(format(code, "0%db" % length)[::-1], 2), length)

    def flush(self):
        if self.nbits:
            self.out.append(self.acc & 0xFF)
        self.acc = self.nbits = 0
        return bytes(self.out)


# Length codes 257..285: (code, extra bits, base length) [RFC 1951 3.2.5]
_LENGTH_CODES = []
_base = 3
for _code in range(257, 285):
    _extra = 0 if _code < 265 else (_code - 261) // 4
    _LENGTH_CODES.append((_code, _extra, _base))
    _base += 1 << _extra
_LENGTH_CODES.append((285, 0, 258))


def _fixed_litlen(bw, sym):
    """Fixed Huffman code for a literal/length symbol [RFC 1951 3.2.6]."""
    if sym < 144:
        bw.huffman(0x30 + sym, 8)
    elif sym < 256:
        bw.huffman(0x190 + sym - 144, 9)
    elif sym < 280:
        bw.huffman(sym - 256, 7)
    else:
        bw.huffman(0xC0 + sym - 280, 8)


def deflate_fixed(data):
    """One final fixed-Huffman block; runs of a repeated byte become matches at distance 1."""
    bw = BitWriter()
    bw.bits(1, 1)          # BFINAL
    bw.bits(1, 2)          # BTYPE = 01, fixed Huffman codes [RFC 1951 3.2.3]
    i, n = 0, len(data)
    while i < n:
        if i > 0:
            run = 0
            while i + run < n and run < 258 and data[i + run] == data[i - 1]:
                run += 1
            if run >= 3:
                code, extra, base = max(c for c in _LENGTH_CODES if c[2] <= run)
                _fixed_litlen(bw, code)
                bw.bits(run - base, extra)
                bw.huffman(0, 5)   # distance code 0 = distance 1, no extra bits
                i += run
                continue
        _fixed_litlen(bw, data[i])
        i += 1
    _fixed_litlen(bw, 256)         # end of block
    return bw.flush()


def zlib_stream(data):
    """zlib wrapper: CMF 0x78 (deflate, 32K window), FLG 0x01, deflate, Adler-32 [RFC 1950 2.2]."""
    out = b"\x78\x01" + deflate_fixed(data) + struct.pack(">I", zlib.adler32(data) & 0xFFFFFFFF)
    assert zlib.decompress(out) == data
    return out


# ---------------------------------------------------------------------------
# PNG
# ---------------------------------------------------------------------------

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"   # [PNG 1.2 3.1]


def png_chunk(ctype, data):
    """length, type, data, CRC-32 over type+data [PNG 1.2 3.2, 3.4]."""
    crc = zlib.crc32(ctype + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + ctype + data + struct.pack(">I", crc)


def png_text(keyword, text):
    """tEXt: keyword, NUL, Latin-1 text [PNG 1.2 4.2.3.1]."""
    return png_chunk(b"tEXt", keyword.encode("latin-1") + b"\0" + text.encode("latin-1"))


def png_itxt(keyword, text):
    """iTXt uncompressed: keyword NUL, flag 0, method 0, language NUL, translated NUL, UTF-8 [PNG 1.2 4.2.3.3]."""
    return png_chunk(b"iTXt", keyword.encode("latin-1") + b"\0\0\0" + b"\0" + b"\0" + text)


def png_gray(width, height, bit_depth, row_value=lambda y: 0, before_idat=(), after_idat=()):
    """Grayscale PNG (colour type 0) whose every row is filled with one byte value.

    IHDR [PNG 1.2 4.1.1]; each scanline = filter byte 0 + packed samples [PNG 1.2 6.1, 7.2];
    IDAT holds one zlib stream [PNG 1.2 4.1.3]; IEND [PNG 1.2 4.1.4].
    """
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, 0, 0, 0, 0)
    row_bytes = (width * bit_depth + 7) // 8
    raw = b"".join(b"\0" + bytes([row_value(y)]) * row_bytes for y in range(height))
    return (PNG_SIGNATURE + png_chunk(b"IHDR", ihdr) + b"".join(before_idat)
            + png_chunk(b"IDAT", zlib_stream(raw)) + b"".join(after_idat)
            + png_chunk(b"IEND", b""))


# ---------------------------------------------------------------------------
# GIF
# ---------------------------------------------------------------------------

GIF_PALETTE = bytes([0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 255])   # black, white, red, blue


def gif_sub_blocks(data):
    """Data sub-blocks (<= 255 bytes each, length-prefixed) + block terminator [GIF89a 15, 16]."""
    out = bytearray()
    for i in range(0, len(data), 255):
        chunk = data[i:i + 255]
        out += bytes([len(chunk)]) + chunk
    return bytes(out) + b"\0"


def gif_lzw(indices, min_code_size=2):
    """Valid but uncompressed-style LZW [GIF89a 22, Appendix F]: a Clear code before
    every two literal codes, so the decoder's table never grows past code 6 and the
    code size stays min_code_size + 1 bits."""
    clear = 1 << min_code_size
    eoi = clear + 1
    size = min_code_size + 1
    bw = BitWriter()
    for k in range(0, len(indices), 2):
        bw.bits(clear, size)
        for p in indices[k:k + 2]:
            bw.bits(p, size)
    bw.bits(eoi, size)
    return bytes([min_code_size]) + gif_sub_blocks(bw.flush())


def gif_header(width, height):
    """Header [GIF89a 17] + Logical Screen Descriptor [GIF89a 18] + Global Color Table [GIF89a 19]."""
    packed = 0x80 | (7 << 4) | 1         # GCT present, 8-bit colour resolution, 2^(1+1) = 4 entries
    return b"GIF89a" + struct.pack("<HHBBB", width, height, packed, 0, 0) + GIF_PALETTE


def gif_image(width, height, indices):
    """Image Descriptor [GIF89a 20] (no local colour table) + Table Based Image Data [GIF89a 22]."""
    return b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0) + gif_lzw(indices)


def gif_graphic_control(delay_cs):
    """Graphic Control Extension: disposal 1 (do not dispose), delay, no transparency [GIF89a 23]."""
    return b"\x21\xf9\x04" + struct.pack("<BHB", 1 << 2, delay_cs, 0) + b"\0"


def gif_netscape_loop(count=0):
    """Application Extension [GIF89a 26] NETSCAPE2.0, sub-block 1 = loop count (0 = forever)."""
    return b"\x21\xff\x0bNETSCAPE2.0" + b"\x03\x01" + struct.pack("<H", count) + b"\0"


def gif_xmp(packet):
    """Application Extension "XMP Data" + "XMP", the raw packet, then the 258-byte
    magic trailer 0x01, 0xFF, 0xFE ... 0x01, 0x00, 0x00 [XMP-3 1.1.2]."""
    assert b"\0" not in packet
    return b"\x21\xff\x0bXMP DataXMP" + packet + b"\x01" + bytes(range(255, -1, -1)) + b"\0"


GIF_TRAILER = b"\x3b"   # [GIF89a 27]


# ---------------------------------------------------------------------------
# WebP (RIFF)
# ---------------------------------------------------------------------------

def riff_chunk(fourcc, data):
    """FourCC, 32-bit LE size, payload, pad byte to even size [WebP container spec: RIFF file format]."""
    return fourcc + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


def webp(*chunks):
    """RIFF header: "RIFF", file size - 8, "WEBP" [WebP container spec: WebP file header]."""
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def vp8x(width, height, icc=False, alpha=False, exif=False, xmp=False, anim=False):
    """VP8X: flags byte (Rsv:2 I L E X A R), 3 reserved bytes, 24-bit canvas width-1,
    24-bit canvas height-1 [WebP container spec: Extended file format]."""
    flags = (icc << 5) | (alpha << 4) | (exif << 3) | (xmp << 2) | (anim << 1)
    return riff_chunk(b"VP8X", bytes([flags, 0, 0, 0])
                      + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))


# ---------------------------------------------------------------------------
# ISO base media file format / QuickTime / HEIF
# ---------------------------------------------------------------------------

def box(btype, *payload):
    """Box: 32-bit size (incl. header), 4-char type [ISO 14496-12 4.2]."""
    data = b"".join(payload)
    return struct.pack(">I", 8 + len(data)) + btype + data


def fullbox(btype, version, flags, *payload):
    """FullBox: Box + 8-bit version + 24-bit flags [ISO 14496-12 4.2]."""
    return box(btype, struct.pack(">I", (version << 24) | flags), *payload)


def ftyp(major, minor, compatible):
    """[ISO 14496-12 4.3]"""
    return box(b"ftyp", major, struct.pack(">I", minor), *compatible)


UNITY_MATRIX = struct.pack(">9i", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
MAC_EPOCH = datetime.datetime(1904, 1, 1, tzinfo=datetime.timezone.utc)


def mac_time(*ymdhms):
    """Seconds since 1904-01-01T00:00:00Z [ISO 14496-12 8.2.2.3]."""
    t = datetime.datetime(*ymdhms, tzinfo=datetime.timezone.utc)
    return (t - MAC_EPOCH) // datetime.timedelta(seconds=1)


def mvhd(version, created, timescale, duration, next_track_id):
    """Movie header [ISO 14496-12 8.2.2, QTFF "Movie Header Atoms"]."""
    if version == 1:
        times = struct.pack(">QQIQ", created, created, timescale, duration)
    else:
        times = struct.pack(">IIII", created, created, timescale, duration)
    return fullbox(b"mvhd", version, 0, times,
                   struct.pack(">iHH", 0x10000, 0x0100, 0), b"\0" * 8,   # rate 1.0, volume 1.0
                   UNITY_MATRIX, b"\0" * 24, struct.pack(">I", next_track_id))


def tkhd(version, created, track_id, duration, width, height, volume=0, alternate_group=0):
    """Track header, flags 3 = enabled | in movie; width/height 16.16 fixed [ISO 14496-12 8.3.2]."""
    if version == 1:
        head = struct.pack(">QQIIQ", created, created, track_id, 0, duration)
    else:
        head = struct.pack(">IIIII", created, created, track_id, 0, duration)
    return fullbox(b"tkhd", version, 3, head, b"\0" * 8,
                   struct.pack(">hhhH", 0, alternate_group, volume, 0), UNITY_MATRIX,
                   struct.pack(">II", width << 16, height << 16))


def mdhd(created, timescale, duration):
    """Media header v0, language "und" packed as 3x5 bits [ISO 14496-12 8.4.2]."""
    lang = sum((ord(c) - 0x60) << s for c, s in zip("und", (10, 5, 0)))
    return fullbox(b"mdhd", 0, 0, struct.pack(">IIIIHH", created, created, timescale, duration, lang, 0))


def hdlr(handler, name=b"", component_type=b"\0\0\0\0"):
    """Handler reference [ISO 14496-12 8.4.3]; in QuickTime the pre_defined field is the
    component type ("mhlr") [QTFF "Handler Reference Atoms"].  Name is NUL-terminated."""
    return fullbox(b"hdlr", 0, 0, component_type, handler, b"\0" * 12, name + b"\0")


def minf(media_header):
    """Media information with an empty sample table [ISO 14496-12 8.4.4, 8.7.1, 8.5.1]."""
    dinf = box(b"dinf", fullbox(b"dref", 0, 0, struct.pack(">I", 1),
                                fullbox(b"url ", 0, 1)))            # 1 = data in this file
    stbl = box(b"stbl",
               fullbox(b"stsd", 0, 0, struct.pack(">I", 0)),          # [8.5.2]
               fullbox(b"stts", 0, 0, struct.pack(">I", 0)),          # [8.6.1.2]
               fullbox(b"stsc", 0, 0, struct.pack(">I", 0)),          # [8.7.4]
               fullbox(b"stsz", 0, 0, struct.pack(">II", 0, 0)),      # [8.7.3.2]
               fullbox(b"stco", 0, 0, struct.pack(">I", 0)))          # [8.7.5]
    return box(b"minf", media_header, dinf, stbl)


VMHD = fullbox(b"vmhd", 0, 1, struct.pack(">HHHH", 0, 0, 0, 0))     # [ISO 14496-12 12.1.2]
SMHD = fullbox(b"smhd", 0, 0, struct.pack(">hH", 0, 0))             # [ISO 14496-12 12.2.2]


def qt_metadata(pairs):
    """QuickTime metadata (moov/meta, NOT a FullBox in QuickTime) [QTFF "Metadata"]:
    hdlr "mdta"; keys (FullBox): entry_count, then per key: size, namespace "mdta", name;
    ilst: one atom per value whose type is the 1-based key index (big-endian uint32),
    holding a "data" atom: type indicator (1 = UTF-8), locale 0, value."""
    keys = fullbox(b"keys", 0, 0, struct.pack(">I", len(pairs)),
                   *[struct.pack(">I", 8 + len(k)) + b"mdta" + k.encode("ascii") for k, _ in pairs])
    items = [box(struct.pack(">I", i + 1),
                 box(b"data", struct.pack(">II", 1, 0), v.encode("utf-8")))
             for i, (_, v) in enumerate(pairs)]
    return box(b"meta", hdlr(b"mdta"), keys, box(b"ilst", *items))


def heif(major, compatible, items, properties, associations, iloc_version, references=()):
    """A HEIF/AVIF still image file: ftyp, meta, mdat.

    items: list of (item_id, item_type, payload, content_type or None)
    properties: list of property boxes (1-based indices in ipma)
    associations: {item_id: [(property_index, essential), ...]}
    references: list of (reference_type, from_id, [to_ids])

    meta is a FullBox [ISO 14496-12 8.11.1] holding hdlr "pict" [ISO 23008-12],
    pitm [8.11.4], iinf + infe v2 [8.11.6], iref [8.11.12], iprp/ipco/ipma
    [ISO 23008-12 9.3], iloc [8.11.3] with absolute offsets into mdat.
    """
    def build_meta(offsets):
        infes = []
        for item_id, item_type, _, content_type in items:
            body = struct.pack(">HH", item_id, 0) + item_type + b"\0"      # id, protection, type, name ""
            if content_type:
                body += content_type.encode("ascii") + b"\0"              # mime items [8.11.6.2]
            infes.append(fullbox(b"infe", 2, 0, body))
        iinf = fullbox(b"iinf", 0, 0, struct.pack(">H", len(items)), *infes)

        # iloc: offset_size 4, length_size 4, base_offset_size 0, index_size/reserved 0
        iloc_body = bytearray(struct.pack(">BBH", (4 << 4) | 4, 0, len(items)))
        for (item_id, _, payload, _), offset in zip(items, offsets):
            iloc_body += struct.pack(">H", item_id)
            if iloc_version == 1:
                iloc_body += struct.pack(">H", 0)            # reserved 12 bits + construction_method 0
            iloc_body += struct.pack(">HH", 0, 1)            # data_reference_index 0 (this file), 1 extent
            iloc_body += struct.pack(">II", offset, len(payload))
        iloc = fullbox(b"iloc", iloc_version, 0, bytes(iloc_body))

        iref = b""
        if references:
            iref = fullbox(b"iref", 0, 0, *[
                box(rtype, struct.pack(">HH", src, len(dst)), *[struct.pack(">H", d) for d in dst])
                for rtype, src, dst in references])

        # ipma v0 flags 0: u16 item_ID, u8 count, u8 (essential bit | 7-bit index) [ISO 23008-12 9.3.2]
        ipma_body = bytearray(struct.pack(">I", len(associations)))
        for item_id, assoc in associations.items():
            ipma_body += struct.pack(">HB", item_id, len(assoc))
            for index, essential in assoc:
                ipma_body += bytes([(0x80 if essential else 0) | index])
        iprp = box(b"iprp", box(b"ipco", *properties), fullbox(b"ipma", 0, 0, bytes(ipma_body)))

        return fullbox(b"meta", 0, 0, hdlr(b"pict"),
                       fullbox(b"pitm", 0, 0, struct.pack(">H", 1)), iinf, iref, iprp, iloc)

    head = ftyp(major, 0, compatible)
    meta = build_meta([0] * len(items))
    offsets, pos = [], len(head) + len(meta) + 8             # first byte after the mdat header
    for _, _, payload, _ in items:
        offsets.append(pos)
        pos += len(payload)
    meta2 = build_meta(offsets)
    assert len(meta2) == len(meta)
    return head + meta2 + box(b"mdat", *[p for _, _, p, _ in items])


def ispe(width, height):
    """Image spatial extents [ISO 23008-12 6.5.3]."""
    return fullbox(b"ispe", 0, 0, struct.pack(">II", width, height))


def irot(angle):
    """Image rotation: 6 reserved bits + 2-bit angle, anticlockwise in 90° units [ISO 23008-12 6.5.10]."""
    return box(b"irot", bytes([angle & 3]))


def exif_item(tiff, with_prefix):
    """Exif item: 32-bit exif_tiff_header_offset, then the payload [ISO 23008-12 A.2.1]."""
    if with_prefix:
        return struct.pack(">I", 6) + b"Exif\0\0" + tiff
    return struct.pack(">I", 0) + tiff


# ---------------------------------------------------------------------------
# The fixtures
# ---------------------------------------------------------------------------

def blank_date():
    """The 19-character "unknown" date some cameras write: digits replaced by spaces [EXIF 2.32 4.6.5]."""
    return re.sub(r"\d", " ", "0000:00:00 00:00:00")


def fixture_pixel7():
    """1. IMG_20240315_093012.jpg"""
    tiff = build_tiff(
        "II",
        ifd0=[
            (0x010F, ASCII, "Google"),
            (0x0110, ASCII, "Pixel 7"),
            (0x0112, SHORT, 6),                              # Orientation: rotate 90° CW to display
            *tiff_resolution(),
            (0x0131, ASCII, "HDR+ 1.0"),
            (0x0132, ASCII, "2024:03:16 10:00:00"),          # DateTime (modified)
        ],
        exif=[
            EXIF_VERSION,
            (0x9003, ASCII, "2024:03:15 09:30:12"),          # DateTimeOriginal
            (0x9004, ASCII, "2024:03:15 09:30:12"),          # DateTimeDigitized
            (0x9010, ASCII, "+00:00"),                       # OffsetTime
            (0x9011, ASCII, "+08:00"),                       # OffsetTimeOriginal
            (0x9012, ASCII, "+08:00"),                       # OffsetTimeDigitized
            (0x9291, ASCII, "25"),                           # SubSecTimeOriginal
            (0xA002, SHORT, JPEG_W),                         # PixelXDimension (SHORT form)
            (0xA003, SHORT, JPEG_H),                         # PixelYDimension
            (0xA434, ASCII, "Pixel 7 back camera"),          # LensModel
        ],
        gps=[
            GPS_VERSION,
            (0x0001, ASCII, "N"),
            (0x0002, RATIONAL, [(31, 1), (13, 1), (4944, 100)]),    # 31°13'49.44" = 31.2304
            (0x0003, ASCII, "E"),
            (0x0004, RATIONAL, [(121, 1), (28, 1), (2532, 100)]),   # 121°28'25.32" = 121.4737
            (0x0007, RATIONAL, [(1, 1), (30, 1), (12, 1)]),         # GPSTimeStamp 01:30:12 UTC
            (0x001D, ASCII, "2024:03:15"),                          # GPSDateStamp
        ],
        ifd1=thumbnail_ifd1(),
        blobs={"thumb": BASE_JPEG},
    )
    xmp = xmp_packet([("xmp:CreateDate", "2024-03-15T09:30:12+08:00")])
    return jpeg_with(app1_exif(tiff), app1_xmp(xmp))


def fixture_nikon():
    """2. DSC_0001.JPG: APP0 JFIF and APP2 ICC before APP1 Exif (Huawei-style ordering)."""
    tiff = build_tiff(
        "MM",
        ifd0=[
            (0x010F, ASCII, "NIKON CORPORATION"),
            (0x0110, ASCII, "NIKON D750"),
            (0x0112, SHORT, 1),
            *tiff_resolution(),
        ],
        exif=[
            EXIF_VERSION,
            (0x9003, ASCII, "2023:07:01 14:05:00"),
        ],
        gps=[
            GPS_VERSION,
            (0x0001, ASCII, "N"),
            (0x0002, RATIONAL, [(48, 1), (51504, 1000), (0, 1)]),   # 48°51.504' = 48.8584
            (0x0003, ASCII, "E"),
            (0x0004, RATIONAL, [(2, 1), (1767, 100), (0, 1)]),      # 2°17.67' = 2.2945
            (0x0007, RATIONAL, [(12, 1), (5, 1), (0, 1)]),          # 12:05:00 UTC
            (0x001D, ASCII, "2023:07:01"),
        ],
    )
    return jpeg_with(app0_jfif(), app2_icc(), app1_exif(tiff))


def fixture_canon():
    """3. no_offset.jpg"""
    tiff = build_tiff(
        "II",
        ifd0=[(0x010F, ASCII, "Canon"), (0x0110, ASCII, "Canon EOS 5D"), *tiff_resolution()],
        exif=[EXIF_VERSION, (0x9003, ASCII, "2022:12:24 18:00:00")],
    )
    return jpeg_with(app1_exif(tiff))


def fixture_placeholder():
    """4. placeholder_dates.jpg"""
    tiff = build_tiff(
        "MM",
        ifd0=[
            (0x010F, ASCII, "SONY"),
            (0x0110, ASCII, "DSC-RX100"),
            *tiff_resolution(),
            (0x0132, ASCII, "2021:01:02 03:04:05"),
        ],
        exif=[
            EXIF_VERSION,
            (0x9003, ASCII, "0000:00:00 00:00:00"),
            (0x9004, ASCII, blank_date()),
        ],
    )
    return jpeg_with(app1_exif(tiff))


def fixture_png_exif():
    """6. IMG_0420.PNG: eXIf chunk (bare big-endian TIFF) before IDAT [PNG-EXT 1.5 eXIf]."""
    tiff = build_tiff(
        "MM",
        ifd0=[],
        exif=[
            EXIF_VERSION,
            (0x9003, ASCII, "2024:02:29 23:59:59"),
            (0x9011, ASCII, "-05:00"),
            user_comment("Screenshot"),
            (0xA002, LONG, 1170),                            # PixelXDimension (LONG form)
            (0xA003, LONG, 2532),
        ],
    )
    assert tiff[:2] == b"MM"
    return png_gray(1170, 2532, 1, before_idat=[png_chunk(b"eXIf", tiff)])


def fixture_png_text_xmp():
    """7. creation_time.png"""
    xmp = xmp_packet([
        ("xmp:CreateDate", "2020-05-06T07:08:09.5-07:00"),
        ("photoshop:DateCreated", "2020-05-06T07:08:09-07:00"),
    ])
    return png_gray(64, 64, 8, row_value=lambda y: y * 4,
                    before_idat=[png_text("Creation Time", "2020:05:06 07:08:09")],
                    after_idat=[png_itxt("XML:com.adobe.xmp", xmp)])   # [XMP-3 1.1.5]


def fixture_heic():
    """8. IMG_0001.HEIC"""
    tiff = build_tiff(
        "MM",
        ifd0=[
            (0x010F, ASCII, "Apple"),
            (0x0110, ASCII, "iPhone 15 Pro"),
            (0x0112, SHORT, 6),
            *tiff_resolution(),
        ],
        exif=[
            EXIF_VERSION,
            (0x9003, ASCII, "2024:05:01 10:20:30"),
            (0x9011, ASCII, "+02:00"),
            (0x9291, ASCII, "123"),
        ],
    )
    xmp = xmp_packet([("xmp:CreateDate", "2024-05-01T10:20:30+02:00")])
    items = [
        (1, b"hvc1", b"HEVC-DUMMY", None),                  # dummy coded image bytes (no hvcC)
        (2, b"Exif", exif_item(tiff, with_prefix=True), None),
        (3, b"mime", xmp, "application/rdf+xml"),
    ]
    return heif(b"heic", [b"mif1", b"heic"], items,
                properties=[ispe(4032, 3024), irot(3)],
                associations={1: [(1, False), (2, True)]},  # irot is transformative: essential
                iloc_version=1,
                references=[(b"cdsc", 2, [1]), (b"cdsc", 3, [1])])


def fixture_mov():
    """9. IMG_0001.MOV: QuickTime, moov after mdat, Apple metadata keys."""
    created = mac_time(2024, 5, 1, 8, 20, 30)
    trak = box(b"trak",
               tkhd(0, created, 1, 1800, 1920, 1440),
               box(b"mdia", mdhd(created, 600, 1800),
                   hdlr(b"vide", component_type=b"mhlr"), minf(VMHD)))
    meta = qt_metadata([
        ("com.apple.quicktime.creationdate", "2024-05-01T10:20:30+0200"),
        ("com.apple.quicktime.content.identifier", "8A1B2C3D-0000-4000-8000-00000000ABCD"),
        ("com.apple.quicktime.make", "Apple"),
        ("com.apple.quicktime.model", "iPhone 15 Pro"),
        ("com.apple.quicktime.location.ISO6709", "+48.8584+002.2945+035.000/"),
    ])
    moov = box(b"moov", mvhd(0, created, 600, 1800, 2), trak, meta)
    return (ftyp(b"qt  ", 0, [b"qt  "]) + box(b"wide")            # [QTFF "Free space atoms"]
            + box(b"mdat", b"\0" * 8) + moov)


def fixture_mp4():
    """10. clip.mp4: moov before mdat, mvhd version 1."""
    created = mac_time(2023, 9, 10, 15, 0, 0)
    video = box(b"trak",
                tkhd(1, created, 1, 12500, 1280, 720),
                box(b"mdia", mdhd(created, 1000, 12500),
                    hdlr(b"vide", b"VideoHandler"), minf(VMHD)))
    audio = box(b"trak",
                tkhd(0, created, 2, 12500, 0, 0, volume=0x0100, alternate_group=1),
                box(b"mdia", mdhd(created, 48000, 600000),
                    hdlr(b"soun", b"SoundHandler"), minf(SMHD)))
    # udta/\xa9xyz as Android's MPEG4Writer writes it [QTFF "User data atoms"]: u16 text
    # length, u16 language (0x15C7 = "eng", packed ISO 639-2), ISO 6709 text with no NUL.
    xyz = b"-33.8568+151.2153/"
    udta = box(b"udta", box(b"\xa9xyz", struct.pack(">HH", len(xyz), 0x15C7), xyz))
    moov = box(b"moov", mvhd(1, created, 1000, 12500, 3), video, audio, udta)
    return ftyp(b"isom", 0x200, [b"isom", b"mp41"]) + moov + box(b"mdat", b"\0" * 8)


def fixture_anim_gif():
    """11. anim.gif: 16x16, 3 frames, loops forever, XMP application extension."""
    xmp = xmp_packet([("xmp:CreateDate", "2019-11-11T11:11:11")])
    frames = b""
    for k in range(3):
        pixels = [((x // 4) + (y // 4) + k) % 4 for y in range(16) for x in range(16)]
        frames += gif_graphic_control(20) + gif_image(16, 16, pixels)
    return gif_header(16, 16) + gif_netscape_loop(0) + gif_xmp(xmp) + frames + GIF_TRAILER


def fixture_still_gif():
    """12. still.gif: 8x8, one frame, no extensions."""
    pixels = [(x + y) % 4 for y in range(8) for x in range(8)]
    return gif_header(8, 8) + gif_image(8, 8, pixels) + GIF_TRAILER


def fixture_webp_extended():
    """13. photo.webp: VP8X + VP8 + EXIF (with "Exif\\0\\0" prefix) + XMP."""
    tiff = build_tiff(
        "II",
        ifd0=[(0x010F, ASCII, "samsung"), (0x0110, ASCII, "SM-S911B"), *tiff_resolution()],
        exif=[
            EXIF_VERSION,
            (0x9003, ASCII, "2023:03:03 03:03:03"),
            (0x9011, ASCII, "+09:00"),
        ],
    )
    xmp = xmp_packet([("xmp:CreateDate", "2023-03-03T03:03:03+09:00")])
    # Chunk order VP8X, (ICCP, ANIM,) image, EXIF, XMP [WebP container spec: Extended file format]
    return webp(vp8x(320, 240, exif=True, xmp=True),
                riff_chunk(b"VP8 ", VP8_320x240),
                riff_chunk(b"EXIF", b"Exif\0\0" + tiff),
                riff_chunk(b"XMP ", xmp))


def fixture_webp_lossless():
    """14. lossless.webp: simple lossless format [WebP container spec: Simple file format (lossless)]."""
    return webp(riff_chunk(b"VP8L", VP8L_100x50))


def fixture_tiff():
    """15. scan.tif: 4x4 8-bit gray, one uncompressed strip [TIFF 6.0 Section 4 (bilevel/gray)]."""
    pixels = bytes(range(0, 256, 16))                        # 16 samples
    return build_tiff(
        "II",
        ifd0=[
            (0x0100, SHORT, 4),                              # ImageWidth
            (0x0101, SHORT, 4),                              # ImageLength
            (0x0102, SHORT, 8),                              # BitsPerSample
            (0x0103, SHORT, 1),                              # Compression: none
            (0x0106, SHORT, 1),                              # PhotometricInterpretation: BlackIsZero
            (0x010F, ASCII, "EPSON"),
            (0x0110, ASCII, "Perfection V600"),
            (0x0111, LONG, Ref("strip")),                    # StripOffsets
            (0x0115, SHORT, 1),                              # SamplesPerPixel
            (0x0116, SHORT, 4),                              # RowsPerStrip
            (0x0117, LONG, len(pixels)),                     # StripByteCounts
            *tiff_resolution(),
            (0x0132, ASCII, "2018:08:08 08:08:08"),
        ],
        exif=[EXIF_VERSION, (0x9003, ASCII, "2018:08:08 08:00:00")],
        blobs={"strip": pixels},
    )


def fixture_screenshot_jpeg():
    """22. Screenshots/IMG_0002.jpg"""
    tiff = build_tiff("II", ifd0=[], exif=[EXIF_VERSION, (0x9003, ASCII, "2024:06:01 12:00:00")])
    return jpeg_with(app1_exif(tiff))


def fixture_avif():
    """21. sample.avif [AVIF 1.0 / ISO 23008-12]"""
    tiff = build_tiff(
        "MM",
        ifd0=[(0x010F, ASCII, "Xiaomi"), (0x0110, ASCII, "23078PND5G"), *tiff_resolution()],
        exif=[
            EXIF_VERSION,
            (0x9003, ASCII, "2024:08:08 20:08:08"),
            (0x9011, ASCII, "+08:00"),
        ],
    )
    items = [
        (1, b"av01", b"AV1-DUMMY", None),                   # dummy coded image bytes (no av1C)
        (2, b"Exif", exif_item(tiff, with_prefix=False), None),
    ]
    return heif(b"avif", [b"mif1", b"avif", b"miaf"], items,
                properties=[ispe(640, 480)],
                associations={1: [(1, False)]},
                iloc_version=0,
                references=[(b"cdsc", 2, [1])])


def build_all():
    pixel7 = fixture_pixel7()
    files = [
        ("IMG_20240315_093012.jpg", pixel7),
        ("DSC_0001.JPG", fixture_nikon()),
        ("no_offset.jpg", fixture_canon()),
        ("placeholder_dates.jpg", fixture_placeholder()),
        ("Screenshot_20240101-120000.png", png_gray(1080, 2400, 1)),
        ("IMG_0420.PNG", fixture_png_exif()),
        ("creation_time.png", fixture_png_text_xmp()),
        ("IMG_0001.HEIC", fixture_heic()),
        ("IMG_0001.MOV", fixture_mov()),
        ("clip.mp4", fixture_mp4()),
        ("anim.gif", fixture_anim_gif()),
        ("still.gif", fixture_still_gif()),
        ("photo.webp", fixture_webp_extended()),
        ("lossless.webp", fixture_webp_lossless()),
        ("scan.tif", fixture_tiff()),
        ("mmexport1700000000000.jpg", jpeg_with(app0_jfif())),
        ("Screen Shot 2023-10-05 at 4.07.09 PM.png", png_gray(2880, 1800, 1)),
        ("png_as.jpg", png_gray(32, 32, 8, row_value=lambda y: 255 - y * 8,
                                before_idat=[png_text("Creation Time", "2019:01:01 00:00:00")])),
        ("notes.txt", b"not a photo\n"),
        ("truncated.jpg", pixel7[:300]),   # cut inside the APP1 Exif segment
        ("sample.avif", fixture_avif()),
        ("Screenshots/IMG_0002.jpg", fixture_screenshot_jpeg()),
    ]
    # truncated.jpg really ends inside APP1: SOI + FFE1 + length > 300 - 4
    assert pixel7[2:4] == b"\xff\xe1" and struct.unpack(">H", pixel7[4:6])[0] + 4 > 300
    return files


# ---------------------------------------------------------------------------
# Fixtures/formats: one file per container layout that the library folder does not cover.

CANON_CR3_UUID = bytes.fromhex("85c0b687820f11e08111f4ce462b6a48")


def fixture_cr3():
    """formats/canon.cr3: a Canon CR3 layout. ftyp "crx " (compatible isom), then moov
    holding mvhd and Canon's uuid box 85c0b687-820f-11e0-8111-f4ce462b6a48, whose children
    CNCV (version text), CMT1 (TIFF: IFD0), CMT2 (TIFF whose only IFD is the Exif IFD) and
    CMT4 (TIFF whose only IFD is the GPS IFD) follow Canon's layout; then mdat. CMT3 (the
    maker note) and THMB are left out: photometa does not read them."""
    created = mac_time(2018, 2, 21, 12, 8, 56)
    cmt1 = build_tiff("II", ifd0=[
        (0x0100, LONG, 6000), (0x0101, LONG, 4000),
        (0x010F, ASCII, "Canon"), (0x0110, ASCII, "Canon EOS M50"),
        (0x0112, SHORT, 8), *tiff_resolution(),
        (0x0132, ASCII, "2018:02:21 13:30:00"),
    ])
    cmt2 = build_tiff("II", ifd0=[
        EXIF_VERSION,
        (0x9003, ASCII, "2018:02:21 13:08:56"),
        (0x9011, ASCII, "+01:00"),
        (0x9291, ASCII, "21"),
        (0xA434, ASCII, "EF-M15-45mm f/3.5-6.3 IS STM"),
    ])
    cmt4 = build_tiff("II", ifd0=[
        GPS_VERSION,
        (0x0001, ASCII, "N"),
        (0x0002, RATIONAL, [(48, 1), (51504, 1000), (0, 1)]),
        (0x0003, ASCII, "E"),
        (0x0004, RATIONAL, [(2, 1), (1767, 100), (0, 1)]),
    ])
    canon = box(b"uuid", CANON_CR3_UUID,
                box(b"CNCV", b"CanonCR3_001/00.09.00/00.00.00"),
                box(b"CMT1", cmt1), box(b"CMT2", cmt2), box(b"CMT4", cmt4))
    moov = box(b"moov", mvhd(0, created, 1000, 1000, 2), canon)
    return ftyp(b"crx ", 1, [b"crx ", b"isom"]) + moov + box(b"mdat", b"\0" * 8)


def fixture_xap_jpeg():
    """formats/xap.jpg: a JPEG whose only date is XMP CreateDate written with the old Adobe
    prefix xap: (bound to http://ns.adobe.com/xap/1.0/, the XMP basic schema)."""
    xmp = (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF '
           b'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" '
           b'xmlns:xap="http://ns.adobe.com/xap/1.0/" xap:CreateDate="2005-06-07T08:09:10+02:00"/>'
           b'</rdf:RDF></x:xmpmeta>')
    return jpeg_with(app1_xmp(xmp))


def fixture_gps_only_jpeg():
    """formats/gps_only.jpg: a phone JPEG an app re-saved without its dates (no
    DateTimeOriginal, DateTimeDigitized or DateTime) but with its GPS IFD: GPSDateStamp
    2023:11:15 and GPSTimeStamp 08:30:00 UTC [EXIF 2.32 4.6.6] are its time of capture."""
    tiff = build_tiff(
        "II",
        ifd0=[(0x010F, ASCII, "Google"), (0x0110, ASCII, "Pixel 7"), *tiff_resolution()],
        exif=[EXIF_VERSION],
        gps=[
            GPS_VERSION,
            (0x0001, ASCII, "N"),
            (0x0002, RATIONAL, [(51, 1), (30, 1), (2664, 100)]),
            (0x0003, ASCII, "W"),
            (0x0004, RATIONAL, [(0, 1), (7, 1), (4008, 100)]),
            (0x0007, RATIONAL, [(8, 1), (30, 1), (0, 1)]),          # GPSTimeStamp 08:30:00 UTC
            (0x001D, ASCII, "2023:11:15"),                          # GPSDateStamp
        ],
    )
    return jpeg_with(app1_exif(tiff))


def fixture_xmp_gps_jpeg():
    """formats/xmp_gps.jpg: a JPEG whose only date is XMP exif:GPSTimeStamp, written without
    a zone: UTC, as the XMP EXIF schema defines it."""
    return jpeg_with(app1_xmp(xmp_packet([("exif:GPSTimeStamp", "2023-12-01T13:45:30")])))


def app13_iptc(datasets, name=b""):
    """APP13 "Photoshop 3.0\0" holding one image resource block [Photoshop File Formats, Image
    resource blocks]: "8BIM", ID 0x0404 (IPTC-NAA), a Pascal name padded to an even length, a
    size and the IIM datasets [IIM 4.1 1.5]: 0x1C, record, dataset, 2-byte length, data."""
    iim = b"".join(b"\x1c" + bytes([rec, ds]) + struct.pack(">H", len(v)) + v for rec, ds, v in datasets)
    pascal = bytes([len(name)]) + name
    if len(pascal) % 2:
        pascal += b"\0"
    block = b"8BIM" + struct.pack(">H", 0x0404) + pascal + struct.pack(">I", len(iim)) + iim
    if len(iim) % 2:
        block += b"\0"
    # A resource before it (0x03ED, resolution info, 16 bytes) that the walk must step over.
    resolution = b"8BIM" + struct.pack(">H", 0x03ED) + b"\0\0" + struct.pack(">I", 16) + bytes(16)
    return jpeg_segment(0xED, b"Photoshop 3.0\0" + resolution + block)


def fixture_iptc_jpeg():
    """formats/iptc.jpg: a picture whose only date is IPTC's, as Photoshop before XMP and news
    agencies wrote it: DateCreated (2:55) 20051223, TimeCreated (2:60) 143000+0200, after a
    Caption (2:120) and the record version (2:00)."""
    return jpeg_with(app13_iptc([(2, 0, b"\x00\x04"), (2, 120, b"Harbour at dusk"), (2, 55, b"20051223"),
                                 (2, 60, b"143000+0200")], name=b"IPTC"))


def riff_chunk(cid, data):
    """A RIFF chunk: id, u32 LE size of the data, data, a pad byte to an even length."""
    return cid + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


def riff_list(list_type, *chunks):
    return riff_chunk(b"LIST", list_type + b"".join(chunks))


def fixture_avi():
    """formats/avi_named.mp4: an AVI [AVI RIFF File Reference] named .mp4, as some cameras
    and renaming tools leave them. RIFF "AVI ", LIST hdrl (avih: 33,333 us per frame,
    90 frames, 640x480; IDIT in asctime form with its line end and NUL), LIST INFO (ICRD,
    a later date that ranks lower), an empty LIST movi and idx1."""
    avih = struct.pack("<10I4I", 33333, 0, 0, 0x10, 90, 0, 1, 0, 640, 480, 0, 0, 0, 0)
    hdrl = riff_list(b"hdrl", riff_chunk(b"avih", avih),
                     riff_chunk(b"IDIT", b"Sat Mar 17 09:15:42 2012\n\0"))
    info = riff_list(b"INFO", riff_chunk(b"ICRD", b"2012-03-18\0"))
    body = b"AVI " + hdrl + info + riff_list(b"movi") + riff_chunk(b"idx1", b"")
    return b"RIFF" + struct.pack("<I", len(body)) + body


def amf_string(text):
    """[AMF0 1.3] A u16 length and UTF-8, as names and short strings are written."""
    b = text.encode()
    return struct.pack(">H", len(b)) + b


def amf_value(v):
    """[AMF0 2] One value with its marker: numbers, booleans, strings, lists (strict arrays)
    and dicts (objects)."""
    if isinstance(v, bool):
        return b"\x01" + bytes([1 if v else 0])
    if isinstance(v, (int, float)):
        return b"\x00" + struct.pack(">d", float(v))
    if isinstance(v, str):
        return b"\x02" + amf_string(v)
    if isinstance(v, list):
        return b"\x0a" + struct.pack(">I", len(v)) + b"".join(amf_value(x) for x in v)
    return b"\x03" + amf_pairs(v)


def amf_pairs(d):
    """[AMF0 2.5] Name-value pairs, then the empty name and the object-end marker."""
    return b"".join(amf_string(k) + amf_value(v) for k, v in d.items()) + b"\x00\x00\x09"


def flv_tag(tag_type, data, timestamp):
    """[FLV 10.1 E.4.1] A tag (type, u24 data size, u24 timestamp and its extension byte, u24
    stream id 0, data) and the PreviousTagSize after it."""
    header = bytes([tag_type]) + struct.pack(">I", len(data))[1:] + struct.pack(">I", timestamp)[1:] + bytes(
        [timestamp >> 24]) + b"\0\0\0"
    return header + data + struct.pack(">I", 11 + len(data))


def fixture_flv():
    """formats/obs_recording.flv: a Flash Video [FLV 10.1 annex E] as older OBS versions wrote
    them, with audio and video flags; its script tag onMetaData (an ECMA array) states the
    duration, the size, the encoder, a keyframes index (an object of strict arrays, walked over)
    and, after it, a creationdate in asctime form; then one video and one audio tag."""
    meta = {"duration": 12.5, "fileSize": 0, "width": 1280, "height": 720, "videocodecid": 7,
            "videodatarate": 2500, "framerate": 30, "audiocodecid": 10, "stereo": True,
            "keyframes": {"times": [0, 2, 4], "filepositions": [13, 400, 800]},
            "encoder": "obs-output module (libobs version 27.2.4)",
            "creationdate": "Fri Jun 02 21:14:07 2023\n"}
    script = b"\x02" + amf_string("onMetaData") + b"\x08" + struct.pack(">I", len(meta)) + amf_pairs(meta)
    body = flv_tag(18, script, 0) + flv_tag(9, b"\x17\x00\x00\x00\x00" + b"\x01" * 8, 0) + flv_tag(
        8, b"\xaf\x00\x12\x10", 0)
    return b"FLV\x01\x05" + struct.pack(">I", 9) + struct.pack(">I", 0) + body


def asf_guid(text):
    """[ASF 10] A GUID as ASF stores it: its first three fields little-endian."""
    a, b, c, d, e = text.split("-")
    return struct.pack("<IHH", int(a, 16), int(b, 16), int(c, 16)) + bytes.fromhex(d + e)


def asf_object(guid, data):
    """An ASF object: GUID, u64 LE size (counting these 24 bytes), data."""
    return asf_guid(guid) + struct.pack("<Q", 24 + len(data)) + data


def fixture_asf():
    """formats/moviemaker.wmv: an ASF file [ASF 01.20.03] as Windows Movie Maker wrote them:
    a Header Object with a File Properties Object (Creation Date 2009-07-14 18:30:00Z as a
    FILETIME, play duration 13.5 s of which 3,000 ms preroll, flags 2: seekable), a video
    Stream Properties Object (640x480) and an audio one; a Data Object holding one empty
    packet; a Simple Index Object."""
    created = (1247596200 + 11644473600) * 10_000_000
    file_props = asf_object("8CABDCA1-A947-11CF-8EE4-00C00C205365",
                            b"\x11" * 16 + struct.pack("<QQQQQQIIII", 0, created, 1, 135_000_000, 105_000_000, 3000,
                                                       2, 3200, 3200, 1_000_000))
    video_specific = struct.pack("<IIBH", 640, 480, 2, 40) + struct.pack("<IiiHHIIiiII", 40, 640, 480, 1, 24,
                                                                       0x33564D57, 0, 0, 0, 0, 0)
    video = asf_object("B7DC0791-A9B7-11CF-8EE6-00C00C205365",
                       asf_guid("BC19EFC0-5B4D-11CF-A8FD-00805F5C442B") + asf_guid("20FB5700-5B55-11CF-A8FD-00805F5C442B")
                       + struct.pack("<QIIHI", 0, len(video_specific), 0, 1, 0) + video_specific)
    audio_specific = struct.pack("<HHIIHHH", 0x161, 2, 44100, 16000, 2973, 16, 0)
    audio = asf_object("B7DC0791-A9B7-11CF-8EE6-00C00C205365",
                       asf_guid("F8699E40-5B4D-11CF-A8FD-00805F5C442B") + asf_guid("20FB5700-5B55-11CF-A8FD-00805F5C442B")
                       + struct.pack("<QIIHI", 0, len(audio_specific), 0, 2, 0) + audio_specific)
    children = file_props + video + audio
    header = asf_guid("75B22630-668E-11CF-A6D9-00AA0062CE6C") + struct.pack("<QIBB", 30 + len(children), 3, 1, 2) + children
    data = asf_object("75B22636-668E-11CF-A6D9-00AA0062CE6C", b"\x11" * 16 + struct.pack("<QH", 1, 0x0101) + b"\0" * 64)
    index = asf_object("33000890-E5B1-11CF-89F4-00A0C90349CB", b"\x11" * 16 + struct.pack("<QII", 10_000_000, 0, 0))
    return header + data + index


def fixture_animated_avif():
    """formats/animated.avif: an AVIF image sequence [ISO 23008-12 7] with no meta box (no
    primary item): ftyp "avis" (avis, msf1, miaf), moov with mvhd v0 (created 2021-07-04
    10:00:00 UTC, 2 s) and one track whose handler is 'pict' (tkhd 96x64), then mdat."""
    created = mac_time(2021, 7, 4, 10, 0, 0)
    trak = box(b"trak",
               tkhd(0, created, 1, 2000, 96, 64),
               box(b"mdia", mdhd(created, 1000, 2000),
                   hdlr(b"pict", b"PictureHandler"), minf(VMHD)))
    moov = box(b"moov", mvhd(0, created, 1000, 2000, 2), trak)
    return ftyp(b"avis", 0, [b"avis", b"msf1", b"miaf"]) + moov + box(b"mdat", b"\0" * 8)


def fixture_raf():
    """formats/fuji.raf: a Fujifilm RAF layout: "FUJIFILMCCD-RAW ", version "0201", camera
    id, camera name (32 bytes), directory version "0100", 20 reserved bytes, then at offset
    84 the JPEG preview's offset and length (u32 BE) and a CFA header offset/length pair; then
    the JPEG (EXIF with Make, Model, DateTimeOriginal), then 16 bytes standing for sensor data."""
    tiff = build_tiff(
        "MM",
        ifd0=[(0x010F, ASCII, "FUJIFILM"), (0x0110, ASCII, "X-T4"), (0x0112, SHORT, 1), *tiff_resolution()],
        exif=[EXIF_VERSION, (0x9003, ASCII, "2022:10:01 16:45:00"), (0x9011, ASCII, "+09:00")],
    )
    jpeg = jpeg_with(app1_exif(tiff))
    header_len = 108
    header = (b"FUJIFILMCCD-RAW " + b"0201" + b"FF129502" + b"X-T4".ljust(32, b"\0") + b"0100"
              + b"\0" * 20)
    assert len(header) == 84
    cfa_at = header_len + len(jpeg)
    header += struct.pack(">IIII", header_len, len(jpeg), cfa_at, 16) + b"\0" * 8
    assert len(header) == header_len
    return header + jpeg + b"\x55" * 16


def fixture_mrw():
    """formats/minolta.mrw: a Minolta MRW layout: "\\0MRM", u32 block-area length, then blocks
    "\\0PRD" (version "21810002", sensor 2456x3272, image 2448x3264 as height, width; 8 more
    bytes), "\\0TTW" (a TIFF stream `MM`: Make, Model, Orientation, Exif IFD with
    DateTimeOriginal) and "\\0WBG"; then 16 bytes standing for the sensor data."""
    prd = b"21810002" + struct.pack(">HHHH", 2456, 3272, 2448, 3264) + b"\x0c\x0c\x59\x00\x00\x00\x00\x01"
    ttw = build_tiff(
        "MM",
        ifd0=[(0x010F, ASCII, "Konica Minolta Camera, Inc."), (0x0110, ASCII, "DiMAGE A2"),
              (0x0112, SHORT, 6), *tiff_resolution()],
        exif=[EXIF_VERSION, (0x9003, ASCII, "2004:11:18 23:14:58")],
    )
    blocks = (b"\0PRD" + struct.pack(">I", len(prd)) + prd
              + b"\0TTW" + struct.pack(">I", len(ttw)) + ttw
              + b"\0WBG" + struct.pack(">I", 4) + b"\0\0\0\0")
    return b"\0MRM" + struct.pack(">I", len(blocks)) + blocks + b"\xaa" * 16


def fixture_far_ifd_tiff():
    """formats/far_ifd.tif: a TIFF laid out as ImageMagick and libtiff write them: the 4x4
    gray strip at offset 8, then padding, then IFD0 at 200 KiB (past libexif's 64 KiB
    window), then the Exif IFD and the values."""
    pixels = bytes(range(0, 256, 16))
    prefix = pixels + b"\0" * (200 * 1024 - 8 - len(pixels))
    return build_tiff(
        "II",
        ifd0=[(0x0100, SHORT, 4), (0x0101, SHORT, 4), (0x0102, SHORT, 8), (0x0103, SHORT, 1),
              (0x0106, SHORT, 1), (0x010F, ASCII, "ImageMagick Test"), (0x0110, ASCII, "convert"),
              (0x0111, LONG, 8), (0x0112, SHORT, 3), (0x0115, SHORT, 1), (0x0116, SHORT, 4),
              (0x0117, LONG, len(pixels)), *tiff_resolution()],
        exif=[EXIF_VERSION, (0x9003, ASCII, "2019:09:09 09:09:09"), (0x9011, ASCII, "-05:00")],
        prefix=prefix)


def fixture_resized_tiff():
    """formats/resized.tif: an uncompressed 4x4 gray TIFF `MM` as an editor saves a photo it
    made smaller: IFD0 is the 4x4 picture, and the Exif IFD keeps the original's
    PixelXDimension/PixelYDimension (2100x1368), which EXIF meant for compressed data
    [EXIF 2.32 4.6.5]."""
    pixels = bytes(range(0, 256, 16))
    return build_tiff(
        "MM",
        ifd0=[(0x0100, SHORT, 4), (0x0101, SHORT, 4), (0x0102, SHORT, 8), (0x0103, SHORT, 1),
              (0x0106, SHORT, 1), (0x010F, ASCII, "NIKON CORPORATION"), (0x0110, ASCII, "NIKON D1X"),
              (0x0111, LONG, 8), (0x0115, SHORT, 1), (0x0116, SHORT, 4), (0x0117, LONG, len(pixels)),
              *tiff_resolution(), (0x0131, ASCII, "Adobe Photoshop CS Macintosh")],
        exif=[EXIF_VERSION, (0x9003, ASCII, "2004:06:21 23:37:53"), (0xA002, LONG, 2100), (0xA003, LONG, 1368)],
        prefix=pixels)


def fixture_arw_like():
    """formats/arw_like.arw: a Sony ARW-like TIFF: IFD0 at offset 8 holds Make, Model and a
    preview pointer pair (JPEGInterchangeFormat 0x0201 = 100 KiB, length 4 KiB) to a preview
    past libexif's window, then the Exif IFD (DateTimeOriginal, OffsetTimeOriginal); the
    preview bytes sit at 100 KiB."""
    preview_at, preview_len = 100 * 1024, 4096
    tiff = build_tiff(
        "II",
        ifd0=[(0x010F, ASCII, "SONY"), (0x0110, ASCII, "ILCE-7M3"), (0x0112, SHORT, 1),
              *tiff_resolution(), (0x0132, ASCII, "2020:02:02 20:00:00"),
              (0x0201, LONG, preview_at), (0x0202, LONG, preview_len)],
        exif=[EXIF_VERSION, (0x9003, ASCII, "2020:02:02 13:00:00"), (0x9011, ASCII, "+01:00")],
    )
    return tiff + b"\0" * (preview_at - len(tiff)) + b"\xff\xd8" + b"\0" * (preview_len - 4) + b"\xff\xd9"


def fixture_rw2():
    """formats/panasonic.rw2: Panasonic RW2 layout: "IIU\\0" (the TIFF header with 0x55 for 42),
    IFD0 with PanasonicRawVersion "0310", SensorWidth/Height 5200x2600 and the sensor borders
    (top 4, left 8, bottom 2596, right 5192: a 5184x2592 picture, 2:1 so that the 16x8 preview
    matches it), Make, Model, Orientation, JpgFromRaw (0x002E, UNDEFINED: the 16x8 JPEG) and the
    Exif IFD (DateTimeOriginal). No raw data: no strips."""
    tiff = build_tiff(
        "II",
        ifd0=[(0x0001, UNDEFINED, b"0310"), (0x0002, SHORT, 5200), (0x0003, SHORT, 2600), (0x0004, SHORT, 4),
              (0x0005, SHORT, 8), (0x0006, SHORT, 2596), (0x0007, SHORT, 5192), (0x002E, UNDEFINED, BASE_JPEG),
              (0x010F, ASCII, "Panasonic"), (0x0110, ASCII, "DC-G9"), (0x0112, SHORT, 1)],
        exif=[EXIF_VERSION, (0x9003, ASCII, "2023:06:10 18:45:00")],
    )
    return tiff[:2] + b"U\0" + tiff[4:]


def fixture_orf():
    """formats/olympus.orf: Olympus ORF layout: "IIRO" (the TIFF header with "RO" for 42), IFD0
    with the raw's ImageWidth/ImageLength 4640x3472, Make, Model, Orientation 8, and the Exif IFD
    (DateTimeOriginal, PixelX/YDimension 4608x3456: the picture as the camera develops it)."""
    tiff = build_tiff(
        "II",
        ifd0=[(0x0100, LONG, 4640), (0x0101, LONG, 3472), (0x010F, ASCII, "OLYMPUS IMAGING CORP."),
              (0x0110, ASCII, "E-M5MarkII"), (0x0112, SHORT, 8)],
        exif=[EXIF_VERSION, (0x9003, ASCII, "2019:04:05 06:07:08"), (0xA002, LONG, 4608), (0xA003, LONG, 3456)],
    )
    return tiff[:2] + b"RO" + tiff[4:]


def fixture_apng():
    """formats/animated.png: an animated PNG [APNG 1.0] as browsers and Signal stickers use:
    IHDR 16x16 8-bit gray, acTL (3 frames, loops forever) before IDAT, then fcTL 0 + IDAT (the
    default image is frame 1), fcTL 1 + fdAT 2, fcTL 3 + fdAT 4, IEND. Every frame is the full
    16x16 picture, grey levels 0x40, 0x80, 0xC0, 0.1 s each."""
    def frame_data(level):
        return zlib_stream(b"".join(b"\0" + bytes([level]) * 16 for _ in range(16)))

    def fctl(seq):
        # sequence, width, height, x, y, delay 1/10 s, dispose none, blend source
        return png_chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, 16, 16, 0, 0, 1, 10, 0, 0))

    ihdr = struct.pack(">IIBBBBB", 16, 16, 8, 0, 0, 0, 0)
    return (PNG_SIGNATURE + png_chunk(b"IHDR", ihdr) + png_chunk(b"acTL", struct.pack(">II", 3, 0))
            + fctl(0) + png_chunk(b"IDAT", frame_data(0x40))
            + fctl(1) + png_chunk(b"fdAT", struct.pack(">I", 2) + frame_data(0x80))
            + fctl(3) + png_chunk(b"fdAT", struct.pack(">I", 4) + frame_data(0xC0))
            + png_chunk(b"IEND", b""))


def fixture_animated_webp():
    """formats/animated.webp: an animated WebP: VP8X (animation flag, canvas 100x50), ANIM
    (background, loop forever), then 3 ANMF frames, each the 100x50 lossless picture at 0,0 for
    0.1 s [WebP container spec: Animation]."""
    def anmf():
        # X/2, Y/2 (24 bits each), width-1, height-1 (24 bits), duration (24 bits), flags.
        header = (0).to_bytes(3, "little") * 2 + (99).to_bytes(3, "little") + (49).to_bytes(3, "little")
        return riff_chunk(b"ANMF", header + (100).to_bytes(3, "little") + b"\0" + riff_chunk(b"VP8L", VP8L_100x50))
    return webp(vp8x(100, 50, anim=True), riff_chunk(b"ANIM", b"\xff\xff\xff\xff\0\0"), anmf(), anmf(), anmf())


# ---------------------------------------------------------------------------
# Motion Photos [Motion Photo format 1.0 (Android); Samsung's trailer as exiftool reads it]

def motion_video(seconds):
    """The movie a Motion Photo carries: ftyp isom, moov with only an mvhd (timescale 1000),
    and a small mdat. Not playable; what photometa reads of it is its place and duration."""
    created = mac_time(2024, 6, 1, 9, 0, 0)
    return (ftyp(b"isom", 0x200, [b"isom", b"mp42"]) + box(b"moov", mvhd(0, created, 1000, int(seconds * 1000), 2))
            + box(b"mdat", b"\0" * 16))


def motion_photo_xmp(items, camera_prefix="Camera", extra=""):
    """Google's Camera and Container XMP: Camera:MotionPhoto="1" (unless `extra` replaces it)
    and a Container:Directory whose items are (semantic, mime, length, padding)."""
    lis = "".join(
        '\n     <rdf:li rdf:parseType="Resource">\n      <Container:Item Item:Semantic="%s" Item:Mime="%s"'
        ' Item:Length="%d" Item:Padding="%d"/>\n     </rdf:li>' % item for item in items)
    text = (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
        ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
        '  <rdf:Description rdf:about=""\n'
        '    xmlns:%s="http://ns.google.com/photos/1.0/camera/"\n'
        '    xmlns:Container="http://ns.google.com/photos/1.0/container/"\n'
        '    xmlns:Item="http://ns.google.com/photos/1.0/container/item/"\n'
        '    %s>\n'
        '   <Container:Directory>\n    <rdf:Seq>%s\n    </rdf:Seq>\n   </Container:Directory>\n'
        '  </rdf:Description>\n'
        ' </rdf:RDF>\n'
        '</x:xmpmeta>\n'
        '<?xpacket end="w"?>' % (camera_prefix, extra or '%s:MotionPhoto="1" %s:MotionPhotoVersion="1"'
                                 % (camera_prefix, camera_prefix), lis))
    return text.encode("utf-8")


def phone_exif(make, model, date):
    return build_tiff("II", ifd0=[(0x010F, ASCII, make), (0x0110, ASCII, model), (0x0112, SHORT, 1)],
                      exif=[EXIF_VERSION, (0x9003, ASCII, date)])


def fixture_motion_google_jpeg():
    """formats/motion.MP.jpg: a Google Motion Photo JPEG (Pixel): EXIF, the Camera/Container XMP
    (Primary, then a MotionPhoto item of the movie's length), the 16x8 JPEG, then the movie
    (2.5 s) appended after EOI."""
    video = motion_video(2.5)
    xmp = motion_photo_xmp([("Primary", "image/jpeg", 0, 0), ("MotionPhoto", "video/mp4", len(video), 0)])
    return jpeg_with(app1_exif(phone_exif("Google", "Pixel 8", "2024:06:01 11:00:00")), app1_xmp(xmp)) + video


def fixture_microvideo_jpeg():
    """formats/microvideo.jpg: the older Google Camera form: GCamera:MicroVideo="1" and
    GCamera:MicroVideoOffset (the movie's length, back from the end of the file); movie 1.5 s."""
    video = motion_video(1.5)
    extra = 'GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="%d"' % len(video)
    xmp = motion_photo_xmp([], camera_prefix="GCamera", extra=extra)
    return jpeg_with(app1_exif(phone_exif("Google", "Pixel 3", "2019:05:05 15:30:00")), app1_xmp(xmp)) + video


def fixture_motion_samsung_jpeg():
    """formats/motion_samsung.jpg: a Samsung Motion Photo: the JPEG, then its trailer: a
    MotionPhoto_Data block (0x0A30: 2 zero bytes, type, name length, name, the 3 s movie), the
    SEFH directory (version 107, one entry pointing back to the block), its length, "SEFT"."""
    video = motion_video(3.0)
    name = b"MotionPhoto_Data"
    block = b"\0\0\x30\x0a" + struct.pack("<I", len(name)) + name + video
    directory = b"SEFH" + struct.pack("<II", 107, 1) + b"\0\0\x30\x0a" + struct.pack("<II", len(block), len(block))
    trailer = block + directory + struct.pack("<I", len(directory)) + b"SEFT"
    return jpeg_with(app1_exif(phone_exif("samsung", "SM-S918B", "2024:07:07 07:07:07"))) + trailer


def fixture_ultrahdr_jpeg():
    """formats/ultrahdr.jpg: an Ultra HDR JPEG: the Container directory lists the Primary and a
    GainMap (a second JPEG appended after EOI), no video: a photo, not a Motion Photo."""
    xmp = motion_photo_xmp([("Primary", "image/jpeg", 0, 0), ("GainMap", "image/jpeg", len(BASE_JPEG), 0)],
                           extra='hdrgm:Version="1.0" xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/"')
    return jpeg_with(app1_exif(phone_exif("Google", "Pixel 8", "2024:06:02 12:00:00")), app1_xmp(xmp)) + BASE_JPEG


def fixture_motion_heic():
    """formats/motion.heic: a Motion Photo HEIC: the HEIF layout of IMG_0001.HEIC (dummy
    coded image) with the Camera/Container XMP as a mime item (Primary with Item:Padding 8, the
    mpvd box header), then a top-level `mpvd` box holding the 2 s movie, last in the file."""
    video = motion_video(2.0)
    xmp = motion_photo_xmp([("Primary", "image/heic", 0, 8), ("MotionPhoto", "video/mp4", len(video), 0)])
    items = [
        (1, b"hvc1", b"HEVC-DUMMY", None),
        (2, b"Exif", exif_item(phone_exif("Google", "Pixel 8", "2024:06:03 13:00:00"), with_prefix=True), None),
        (3, b"mime", xmp, "application/rdf+xml"),
    ]
    still = heif(b"heic", [b"mif1", b"heic"], items, properties=[ispe(4032, 3024)],
                 associations={1: [(1, False)]}, iloc_version=1,
                 references=[(b"cdsc", 2, [1]), (b"cdsc", 3, [1])])
    return still + box(b"mpvd", video)


def inline_ifd(order, entries):
    """An IFD whose values all fit in their entries (SHORT/LONG, count 1), so it can be stored
    as a blob anywhere: count, 12-byte entries sorted by tag, next offset 0 [TIFF 6.0 p.14]."""
    bo = "<" if order == "II" else ">"
    out = struct.pack(bo + "H", len(entries))
    for tag, typ, value in sorted(entries):
        field = struct.pack(bo + ("H" if typ == SHORT else "I"), value).ljust(4, b"\0")
        out += struct.pack(bo + "HHI", tag, typ, 1) + field
    return out + b"\0\0\0\0"


def fixture_nef_like():
    """formats/nef_like.nef: a Nikon NEF-like TIFF `MM`: IFD0 is the 160x106 preview
    (NewSubfileType 1) with SubIFDs (0x014A) pointing at a 640x424 JPEG preview
    (NewSubfileType 1) and the 3040x2014 raw image (NewSubfileType 0); an Exif IFD with the
    date. The picture's size is the raw image's."""
    preview = inline_ifd("MM", [(0x00FE, LONG, 1), (0x0100, LONG, 640), (0x0101, LONG, 424)])
    raw = inline_ifd("MM", [(0x00FE, LONG, 0), (0x0100, LONG, 3040), (0x0101, LONG, 2014),
                            (0x0102, SHORT, 12), (0x0103, SHORT, 1)])
    return build_tiff(
        "MM",
        ifd0=[(0x00FE, LONG, 1), (0x0100, SHORT, 160), (0x0101, SHORT, 106),
              (0x010F, ASCII, "NIKON CORPORATION"), (0x0110, ASCII, "NIKON D70"), (0x0112, SHORT, 1),
              *tiff_resolution(), (0x014A, LONG, [Ref("sub0"), Ref("sub1")])],
        exif=[EXIF_VERSION, (0x9003, ASCII, "2004:05:06 07:08:09")],
        blobs={"sub0": preview, "sub1": raw},
    )


# ---------------------------------------------------------------------------
# Matroska and WebM [RFC 8794 EBML, RFC 9559 Matroska]

def ebml_id(eid):
    """An element ID as written: its bytes, marker bits included (0x1A45DFA3 is 4 bytes)."""
    n = (eid.bit_length() + 7) // 8
    return eid.to_bytes(n, "big")


def ebml_size(n, length=None):
    """[RFC 8794 4] A size as a variable-size integer, in the shortest form (or `length` bytes)."""
    if length is None:
        length = 1
        while n >= (1 << (7 * length)) - 1:
            length += 1
    return ((1 << (7 * length)) | n).to_bytes(length, "big")


EBML_UNKNOWN_SIZE = b"\x01\xff\xff\xff\xff\xff\xff\xff"


def ebml(eid, *children, size=None):
    data = b"".join(children)
    return ebml_id(eid) + (size if size is not None else ebml_size(len(data))) + data


def ebml_uint(eid, v):
    n = max(1, (v.bit_length() + 7) // 8)
    return ebml(eid, v.to_bytes(n, "big"))


def ebml_str(eid, text):
    return ebml(eid, text.encode("utf-8"))


def ebml_float(eid, v):
    return ebml(eid, struct.pack(">d", v))


def ebml_date(eid, *ymdhms):
    """[RFC 8794 7.6] Nanoseconds since 2001-01-01T00:00:00 UTC, 8 bytes, signed."""
    seconds = calendar.timegm(ymdhms + (0, 0, 0)) - calendar.timegm((2001, 1, 1, 0, 0, 0, 0, 0, 0))
    return ebml(eid, struct.pack(">q", seconds * 1_000_000_000))


def ebml_header(doc_type):
    """[RFC 8794 11.2] EBMLVersion 1, EBMLReadVersion 1, EBMLMaxIDLength 4, EBMLMaxSizeLength 8,
    DocType, DocTypeVersion 4, DocTypeReadVersion 2 (as FFmpeg and mkvmerge write them)."""
    return ebml(0x1A45DFA3, ebml_uint(0x4286, 1), ebml_uint(0x42F7, 1), ebml_uint(0x42F2, 4),
                ebml_uint(0x42F3, 8), ebml_str(0x4282, doc_type), ebml_uint(0x4287, 4), ebml_uint(0x4285, 2))


def mkv_track(number, track_type, codec, video=None):
    """[RFC 9559 5.1.4.1] TrackEntry: TrackNumber, TrackUID, TrackType (1 video, 2 audio), CodecID,
    and for video a Video element with PixelWidth and PixelHeight."""
    parts = [ebml_uint(0xD7, number), ebml_uint(0x73C5, number), ebml_uint(0x83, track_type), ebml_str(0x86, codec)]
    if video:
        w, h = video
        parts.append(ebml(0xE0, ebml_uint(0xB0, w), ebml_uint(0xBA, h)))
    return ebml(0xAE, *parts)


def mkv_cluster():
    """[RFC 9559 5.1.3] A Cluster: Timestamp 0 and one SimpleBlock of track 1 (a keyframe of 3
    dummy bytes: photometa never reads clusters)."""
    return ebml(0x1F43B675, ebml_uint(0xE7, 0), ebml(0xA3, b"\x81\x00\x00\x80" + b"\x00\x00\x00"))


def fixture_webm_screencast():
    """formats/screencast.webm: WebM as GNOME's screen recorder writes it while recording
    (GStreamer's matroskamux on a pipe): an EBML header with DocType "webm", then a Segment of
    unknown size holding Info (TimestampScale 1,000,000, DateUTC 2024-11-29T21:15:00Z,
    WritingApp), Tracks (one VP8 video track, 1920x1080) and one Cluster. No Duration: a live
    recording does not know it."""
    info = ebml(0x1549A966, ebml_uint(0x2AD7B1, 1_000_000), ebml_date(0x4461, 2024, 11, 29, 21, 15, 0),
                ebml_str(0x4D80, "GStreamer matroskamux version 1.22.0"),
                ebml_str(0x5741, "GStreamer Matroska muxer"))
    tracks = ebml(0x1654AE6B, mkv_track(1, 1, "V_VP8", video=(1920, 1080)))
    return ebml_header("webm") + ebml(0x18538067, info, tracks, mkv_cluster(), size=EBML_UNKNOWN_SIZE)


def fixture_mkv_recording():
    """formats/recording.mkv: Matroska as OBS and FFmpeg write it to a file: DocType "matroska",
    a Segment of known size, a SeekHead (Info, Tracks and Cues positions), a Void, Info with
    Duration 4,500 ticks of 1 ms (4.5 s) and no DateUTC, Tracks with an audio track before the
    1280x720 video track, a Cluster and Cues. No date inside: the date falls back to the file."""
    info = ebml(0x1549A966, ebml_uint(0x2AD7B1, 1_000_000), ebml_float(0x4489, 4500.0),
                ebml_str(0x4D80, "Lavf60.16.100"), ebml_str(0x5741, "Lavf60.16.100"))
    tracks = ebml(0x1654AE6B, mkv_track(1, 2, "A_OPUS"), mkv_track(2, 1, "V_MPEG4/ISO/AVC", video=(1280, 720)))
    cues = ebml(0x1C53BB6B, ebml(0xBB, ebml_uint(0xB3, 0), ebml(0xB7, ebml_uint(0xF7, 2), ebml_uint(0xF1, 0))))
    void = ebml(0xEC, b"\0" * 8)

    def seek(eid, pos):
        # [RFC 9559 5.1.1.1] SeekID (the element's ID bytes) and SeekPosition, 4 bytes each so
        # the SeekHead's size does not depend on the positions it holds.
        return ebml(0x4DBB, ebml(0x53AB, ebml_id(eid)), ebml(0x53AC, struct.pack(">I", pos)))

    def seek_head(p_info, p_tracks, p_cues):
        return ebml(0x114D9B74, seek(0x1549A966, p_info), seek(0x1654AE6B, p_tracks), seek(0x1C53BB6B, p_cues))

    head_len = len(seek_head(0, 0, 0)) + len(void)
    p_info = head_len
    p_tracks = p_info + len(info)
    p_cues = p_tracks + len(tracks) + len(mkv_cluster())
    body = seek_head(p_info, p_tracks, p_cues) + void + info + tracks + mkv_cluster() + cues
    return ebml_header("matroska") + ebml(0x18538067, body, size=ebml_size(len(body), 8))


def fixture_xmp_place_jpeg():
    """formats/xmp_place.jpg: a JPEG whose only position is its own XMP, as an editor or a
    converter that drops the Exif block keeps it: exif:GPSLatitude "35,39.516N" and
    exif:GPSLongitude "139,44.724E" ([XMP EXIF schema] GPSCoordinate: degrees, minutes and a
    direction), with xmp:CreateDate."""
    return jpeg_with(app1_xmp(xmp_packet([("exif:GPSLatitude", "35,39.516N"), ("exif:GPSLongitude", "139,44.724E"),
                                          ("xmp:CreateDate", "2022-10-11T12:13:14+09:00")])))


def fixture_xmp_tiff():
    """formats/xmp.tif: a scanner's TIFF whose only date and camera are in its XMP packet,
    IFD0 tag 700 (XMLPacket, BYTE) [XMP Part 3 1.2.5]: exif:DateTimeOriginal
    2019-09-09T09:09:09+09:00, tiff:Make and tiff:Model."""
    pixels = bytes(range(0, 256, 16))
    xmp = xmp_packet([("exif:DateTimeOriginal", "2019-09-09T09:09:09+09:00"),
                      ("tiff:Make", "Plustek"), ("tiff:Model", "OpticFilm 8200i")])
    return build_tiff(
        "II",
        ifd0=[(0x0100, SHORT, 4), (0x0101, SHORT, 4), (0x0102, SHORT, 8), (0x0103, SHORT, 1),
              (0x0106, SHORT, 1), (0x0111, LONG, 8), (0x0115, SHORT, 1), (0x0116, SHORT, 4),
              (0x0117, LONG, len(pixels)), *tiff_resolution(), (0x02BC, BYTE, list(xmp))],
        prefix=pixels)


def movie_without_dates(brand, minor, compatible, *moov_extra, top_extra=b""):
    """A one-track movie whose mvhd and tkhd carry no creation time (0: unset), as an
    editor's export often does, with `moov_extra` boxes in moov and `top_extra` after it."""
    trak = box(b"trak", tkhd(0, 0, 1, 3000, 640, 480),
               box(b"mdia", mdhd(0, 1000, 3000), hdlr(b"vide", b"VideoHandler"), minf(VMHD)))
    moov = box(b"moov", mvhd(0, 0, 1000, 3000, 2), trak, *moov_extra)
    return ftyp(brand, minor, compatible) + moov + top_extra + box(b"mdat", b"\0" * 8)


def fixture_loci_3gp():
    """formats/loci.3gp: a 3GP whose place is udta/loci [3GPP TS 26.244, Location Information
    Box] as ffmpeg writes it (and as a remux of an Android clip carries it): FullBox, language
    "und", an empty name, role 0, longitude 139.7454 and latitude 35.6586 and altitude 40 in
    16.16 fixed point, "earth", empty notes."""
    fixed = lambda v: struct.pack(">i", round(v * 65536))
    loci = fullbox(b"loci", 0, 0, struct.pack(">H", 0x55C4), b"\0", b"\0",
                   fixed(139.7454), fixed(35.6586), fixed(40), b"earth\0", b"\0")
    return movie_without_dates(b"3gp4", 0x200, [b"isom", b"3gp4"], box(b"udta", loci))


def fixture_xmp_mp4():
    """formats/xmp.mp4: an MP4 without dates in its headers whose XMP packet is a top-level
    uuid box BE7ACFCB-97A9-42E8-9C71-999491E3AFAC [XMP Part 3 1.2.7.1], as Adobe's tools and
    exiftool write it: xmp:CreateDate 2021-04-05T06:07:08+01:00."""
    xmp = xmp_packet([("xmp:CreateDate", "2021-04-05T06:07:08+01:00")])
    uuid = bytes.fromhex("BE7ACFCB97A942E89C71999491E3AFAC")
    return movie_without_dates(b"isom", 0x200, [b"isom", b"mp41"], top_extra=box(b"uuid", uuid, xmp))


def fixture_xmp_mov():
    """formats/xmp.mov: a QuickTime movie without dates in its headers whose XMP packet is
    moov/udta/XMP_ [XMP Part 3 1.2.7.2]: photoshop:DateCreated 2020-02-03T04:05:06-05:00."""
    xmp = xmp_packet([("photoshop:DateCreated", "2020-02-03T04:05:06-05:00")])
    return movie_without_dates(b"qt  ", 0, [b"qt  "], box(b"udta", box(b"XMP_", xmp)))


def fixture_fragmented_mp4():
    """formats/fragmented.mp4: a fragmented MP4 as a live recorder or `-movflags
    frag_keyframe` writes it: mvhd's duration 0 (unknown when the header was written) and
    the length in moov/mvex/mehd [ISO 14496-12 8.8.2]: 4,500 in a timescale of 1,000, 4.5 s."""
    created = mac_time(2022, 8, 9, 10, 11, 12)
    trak = box(b"trak", tkhd(0, created, 1, 0, 640, 480),
               box(b"mdia", mdhd(created, 1000, 0), hdlr(b"vide", b"VideoHandler"), minf(VMHD)))
    mvex = box(b"mvex", fullbox(b"mehd", 0, 0, struct.pack(">I", 4500)),
               fullbox(b"trex", 0, 0, struct.pack(">IIIII", 1, 1, 0, 0, 0)))
    moov = box(b"moov", mvhd(0, created, 1000, 0, 2), trak, mvex)
    return ftyp(b"iso5", 0x200, [b"iso5", b"iso6", b"mp41"]) + moov + box(b"moof") + box(b"mdat", b"\0" * 8)


def fixture_android_mp4():
    """formats/VID_20240101_130000.mp4: a 90 s clip as an Android phone in +01:00 writes it
    (Stagefright's MPEG4Writer): named at the start of the recording in local time, and its
    mvhd stamped with time(NULL) when the recording stopped (writeMvhdBox, called from
    writeMoovBox at stop()): 2024-01-01 12:01:30 UTC. The handlers are named "VideoHandle" and
    "SoundHandle", and moov/meta holds the mdta key com.android.version ("14") [QTFF
    "Metadata"]."""
    stopped = mac_time(2024, 1, 1, 12, 1, 30)
    video = box(b"trak", tkhd(0, stopped, 1, 90000, 1920, 1080),
                box(b"mdia", mdhd(stopped, 90000, 8100000), hdlr(b"vide", b"VideoHandle"), minf(VMHD)))
    audio = box(b"trak", tkhd(0, stopped, 2, 90000, 0, 0, volume=0x0100, alternate_group=1),
                box(b"mdia", mdhd(stopped, 48000, 4320000), hdlr(b"soun", b"SoundHandle"), minf(SMHD)))
    key = b"com.android.version"
    keys = fullbox(b"keys", 0, 0, struct.pack(">I", 1), struct.pack(">I", 8 + len(key)), b"mdta", key)
    ilst = box(b"ilst", box(struct.pack(">I", 1), box(b"data", struct.pack(">II", 1, 0), b"14")))
    meta = box(b"meta", hdlr(b"mdta"), keys, ilst)
    moov = box(b"moov", mvhd(0, stopped, 1000, 90000, 3), video, audio, meta)
    return ftyp(b"mp42", 0, [b"isom", b"mp42"]) + moov + box(b"mdat", b"\0" * 8)


def fixture_audio_m4a():
    """formats/voice.m4a: a voice memo or song as phones and iTunes write it: ftyp `M4A `, one
    sound track (hdlr `soun`, "SoundHandler"), no video track; mvhd 2024-02-03 04:05:06 UTC,
    2 s. Not a video: kind unknown [ISO 14496-12 8.4.3]."""
    created = mac_time(2024, 2, 3, 4, 5, 6)
    audio = box(b"trak", tkhd(0, created, 1, 2000, 0, 0, volume=0x0100, alternate_group=1),
                box(b"mdia", mdhd(created, 44100, 88200), hdlr(b"soun", b"SoundHandler"), minf(SMHD)))
    moov = box(b"moov", mvhd(0, created, 1000, 2000, 2), audio)
    return ftyp(b"M4A ", 0, [b"M4A ", b"mp42", b"isom"]) + moov + box(b"mdat", b"\0" * 8)


def fixture_gnome_renamed_png():
    """formats/bug-report.png: an area screenshot GNOME Shell saved (src/shell-screenshot.c:
    tEXt Software "gnome-screenshot", tEXt "Creation Time" as g_date_time_format(dt, "%c") in
    an en_US session), renamed and moved out of Screenshots/; 700x400 is no screen size."""
    return png_gray(700, 400, 1, before_idat=[png_text("Software", "gnome-screenshot"),
                                              png_text("Creation Time", "Fri 07 Mar 2025 02:05:09 PM CET")])


def mpeg_crc32(data):
    """[ISO/IEC 13818-1 Annex A] CRC-32/MPEG-2: polynomial 0x04C11DB7, no reflection, initial
    value 0xFFFFFFFF, no final XOR."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if crc & 0x80000000 else (crc << 1) & 0xFFFFFFFF
    return crc


def ts_packet(pid, payload, start=False, counter=0, pcr=None, section=False):
    """[ISO/IEC 13818-1 2.4.3.2-5] One 188-byte transport packet. A section is padded with 0xFF
    after it; a PES payload shorter than the packet, or one with a PCR, gets an adaptation
    field (its flags, the PCR, stuffing bytes) to fill it."""
    if section or (len(payload) == 184 and pcr is None):
        control, body = 0x10, payload + b"\xff" * (184 - len(payload))
    else:
        length = 184 - 1 - len(payload)
        field = b""
        if length > 0:
            field = bytes([0x10 if pcr is not None else 0x00])
            if pcr is not None:
                field += bytes([(pcr >> 25) & 0xFF, (pcr >> 17) & 0xFF, (pcr >> 9) & 0xFF, (pcr >> 1) & 0xFF,
                                ((pcr & 1) << 7) | 0x7E, 0])
            assert length >= len(field), (length, len(field))
            field += b"\xff" * (length - len(field))
        control, body = 0x30, bytes([length]) + field + payload
    packet = bytes([0x47, (0x40 if start else 0) | (pid >> 8), pid & 0xFF, control | (counter & 0xF)]) + body
    assert len(packet) == 188, len(packet)
    return packet


def psi_section(table_id, body):
    """A PSI section with its syntax header fields already in `body`, length and CRC added."""
    section = bytes([table_id]) + struct.pack(">H", 0xB000 | (len(body) + 4)) + body
    return b"\x00" + section + struct.pack(">I", mpeg_crc32(section))


def rbsp_escape(data):
    """[ITU-T H.264 7.4.1] An emulation prevention byte 0x03 after two zeros before 0-3."""
    out, zeros = bytearray(), 0
    for b in data:
        if zeros >= 2 and b <= 3:
            out.append(3)
            zeros = 0
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return bytes(out)


def fixture_avchd():
    """formats/avchd.MTS: an AVCHD recording as camcorders write it (BDAV: 192-byte packets, a
    4-byte arrival time stamp before each transport packet): PAT, PMT (one H.264 stream, PID
    0x1011), then the video's first PES packet: an access unit delimiter, a filler NAL that
    carries the SEI across a packet boundary, and the SEI's unregistered user data (UUID
    17ee8c60-f84d-11d9-8cd6-0800200c9a66) with MDPM entries: 0x13 time code (zeros, so the
    NAL holds emulation prevention bytes), 0x18/0x19 the recording time 2024-11-29 22:15:00 in
    BCD, 0xe0 the make (Sony, 0x0108), 0xe4-0xe6 the model ("HDR-CX550V"). No picture data: it
    does not decode."""
    pat = psi_section(0x00, struct.pack(">HBBB", 1, 0xC1, 0, 0) + struct.pack(">HH", 1, 0xE100))
    pmt_body = struct.pack(">HBBB", 1, 0xC1, 0, 0) + struct.pack(">HH", 0xF011, 0xF000)
    pmt_body += bytes([0x1B]) + struct.pack(">HH", 0xF011, 0xF000)
    pmt = psi_section(0x02, pmt_body)
    uuid = bytes.fromhex("17ee8c60f84d11d98cd60800200c9a66")
    entries = [(0x13, b"\x00\x00\x00\x00"), (0x18, bytes([0x12, 0x20, 0x24, 0x11])),
               (0x19, bytes([0x29, 0x22, 0x15, 0x00])), (0xE0, bytes([0x01, 0x08, 0x00, 0x00])),
               (0xE4, b"HDR-"), (0xE5, b"CX55"), (0xE6, b"0V\x00\x00")]
    mdpm = b"MDPM" + bytes([len(entries)]) + b"".join(bytes([t]) + v for t, v in entries)
    user_data = uuid + mdpm
    sei = bytes([0x05, len(user_data)]) + user_data + b"\x80"
    es = b"\x00\x00\x00\x01\x09\xf0"                       # access unit delimiter
    es += b"\x00\x00\x01\x0c" + b"\xff" * 150 + b"\x80"      # filler data NAL
    es += b"\x00\x00\x01\x06" + rbsp_escape(sei)              # SEI
    pes = b"\x00\x00\x01\xe0\x00\x00\x80\x80\x05" + bytes([0x21, 0x00, 0x01, 0x00, 0x01]) + es
    packets = [ts_packet(0, pat, start=True, section=True), ts_packet(0x100, pmt, start=True, section=True)]
    first = 184 - 8
    packets.append(ts_packet(0x1011, pes[:first], start=True, pcr=0))
    rest = pes[first:]
    counter = 1
    while rest:
        packets.append(ts_packet(0x1011, rest[:184], counter=counter))
        rest, counter = rest[184:], counter + 1
    packets += [ts_packet(0x1FFF, b"\xff" * 184)] * 2
    return b"".join(struct.pack(">I", 0x40000000 | (i * 1000)) + p for i, p in enumerate(packets))


def build_formats():
    return [("canon.cr3", fixture_cr3()), ("xap.jpg", fixture_xap_jpeg()), ("avi_named.mp4", fixture_avi()),
            ("obs_recording.flv", fixture_flv()), ("moviemaker.wmv", fixture_asf()),
            ("gps_only.jpg", fixture_gps_only_jpeg()), ("xmp_gps.jpg", fixture_xmp_gps_jpeg()),
            ("iptc.jpg", fixture_iptc_jpeg()),
            ("animated.avif", fixture_animated_avif()), ("fuji.raf", fixture_raf()),
            ("minolta.mrw", fixture_mrw()),
            ("far_ifd.tif", fixture_far_ifd_tiff()), ("arw_like.arw", fixture_arw_like()),
            ("nef_like.nef", fixture_nef_like()), ("resized.tif", fixture_resized_tiff()),
            ("screencast.webm", fixture_webm_screencast()), ("recording.mkv", fixture_mkv_recording()),
            ("panasonic.rw2", fixture_rw2()), ("olympus.orf", fixture_orf()),
            ("animated.png", fixture_apng()), ("animated.webp", fixture_animated_webp()),
            ("motion.MP.jpg", fixture_motion_google_jpeg()), ("microvideo.jpg", fixture_microvideo_jpeg()),
            ("motion_samsung.jpg", fixture_motion_samsung_jpeg()), ("ultrahdr.jpg", fixture_ultrahdr_jpeg()),
            ("motion.heic", fixture_motion_heic()), ("xmp.tif", fixture_xmp_tiff()),
            ("loci.3gp", fixture_loci_3gp()), ("xmp.mp4", fixture_xmp_mp4()), ("xmp.mov", fixture_xmp_mov()),
            ("fragmented.mp4", fixture_fragmented_mp4()), ("xmp_place.jpg", fixture_xmp_place_jpeg()),
            ("bug-report.png", fixture_gnome_renamed_png()), ("avchd.MTS", fixture_avchd()),
            ("VID_20240101_130000.mp4", fixture_android_mp4()), ("voice.m4a", fixture_audio_m4a())]


# ---------------------------------------------------------------------------
# Fixtures/pairing: the Live Photo rule's three passes and its guard (docs/kinds.md).

def apple_maker_note(identifier):
    """Apple's maker note: "Apple iOS\\0", version 1, byte order "MM", then an IFD whose offsets
    count from the note's start; tag 0x0011 (exiftool's MediaGroupUUID) holds the Live Photo
    content identifier as ASCII."""
    value = identifier.encode("ascii") + b"\0"
    header = b"Apple iOS\0" + b"\0\x01" + b"MM"
    ifd = struct.pack(">H", 1) + struct.pack(">HHII", 0x0011, ASCII, len(value), 14 + 2 + 12 + 4) + b"\0\0\0\0"
    return header + ifd + value


def pairing_jpeg(dto, offset, identifier=None):
    exif = [EXIF_VERSION, (0x9003, ASCII, dto), (0x9011, ASCII, offset)]
    if identifier:
        exif.append((0x927C, UNDEFINED, apple_maker_note(identifier)))   # MakerNote [EXIF 2.32 4.6.5]
    tiff = build_tiff("MM", ifd0=[(0x010F, ASCII, "Apple"), (0x0110, ASCII, "iPhone 13"), (0x0112, SHORT, 1),
                                  *tiff_resolution()], exif=exif)
    return jpeg_with(app1_exif(tiff))


def pairing_mov(utc, seconds, creationdate, identifier=None):
    """A QuickTime movie of `seconds` (timescale 600) with Apple's keys."""
    created = mac_time(*utc)
    duration = int(seconds * 600)
    trak = box(b"trak", tkhd(0, created, 1, duration, 1920, 1440),
               box(b"mdia", mdhd(created, 600, duration), hdlr(b"vide", component_type=b"mhlr"), minf(VMHD)))
    pairs = [("com.apple.quicktime.creationdate", creationdate)]
    if identifier:
        pairs.append(("com.apple.quicktime.content.identifier", identifier))
    pairs += [("com.apple.quicktime.make", "Apple"), ("com.apple.quicktime.model", "iPhone 13")]
    moov = box(b"moov", mvhd(0, created, 600, duration, 2), trak, qt_metadata(pairs))
    return ftyp(b"qt  ", 0, [b"qt  "]) + box(b"mdat", b"\0" * 8) + moov


PAIRING_ID = "5E1F0000-AAAA-4BBB-8CCC-000000000007"


def build_pairing():
    return [
        # Pass 2: one identifier, two names (a browser's "(1)" on a downloaded copy).
        ("IMG_0007.JPG", pairing_jpeg("2024:06:01 12:00:00", "+02:00", PAIRING_ID)),
        ("IMG_0007(1).MOV", pairing_mov((2024, 6, 1, 9, 59, 58), 2.9, "2024-06-01T11:59:58+0200", PAIRING_ID)),
        # Pass 3: same name, no identifiers, a 3 s clip that starts 1 s before the still.
        ("walk.jpg", pairing_jpeg("2024:06:02 09:30:01", "+02:00")),
        ("walk.mov", pairing_mov((2024, 6, 2, 7, 30, 0), 3.0, "2024-06-02T09:30:00+0200")),
        # Same name, unrelated: a 12 s clip three years later. Not a Live Photo.
        ("fixture.jpg", pairing_jpeg("2020:01:01 10:00:00", "+01:00")),
        ("fixture.mov", pairing_mov((2023, 3, 3, 15, 0, 0), 12.0, "2023-03-03T16:00:00+0100")),
    ]


def main():
    files = [(os.path.join(OUT, rel), rel, data) for rel, data in build_all()]
    files += [(os.path.join(FORMATS, rel), "../formats/" + rel, data) for rel, data in build_formats()]
    files += [(os.path.join(PAIRING, rel), "../pairing/" + rel, data) for rel, data in build_pairing()]
    total = 0
    for path, rel, data in files:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (FIXED_MTIME, FIXED_MTIME))
        total += len(data)
        print("%7d  %s" % (len(data), rel))
    print("%7d  total (%d files)" % (total, len(files)))


if __name__ == "__main__":
    main()
