/// Decides a file's format from its first bytes (magic numbers and the ISO BMFF `ftyp` brands).
/// This is the only place that knows the magic numbers.
package enum FormatDetector {
    /// How many leading bytes `detect` needs to see: a transport stream's first packets.
    package static let headerLength = TransportStreamReader.probeLength

    package static func detect(_ head: [UInt8]) -> MediaFormat {
        // [ISO 10918-1 B.1.1.2] SOI followed by a marker.
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        // [PNG 1.2 12.12] signature.
        if head.hasPrefix([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        // [GIF89a 17] "GIF87a" / "GIF89a".
        if head.hasPrefix(Array("GIF87a".utf8)) || head.hasPrefix(Array("GIF89a".utf8)) { return .gif }
        // [RIFF] "RIFF" size "WEBP".
        if head.hasPrefix(Array("RIFF".utf8)), head.matches(Array("WEBP".utf8), at: 8) { return .webp }
        // [ISO/IEC 18181-2] JPEG XL's signature box; [ISO/IEC 18181-1] a bare codestream.
        if head.hasPrefix(JXLReader.containerSignature) || head.hasPrefix(JXLCodestream.signature) { return .jxl }
        // Fujifilm RAF: "FUJIFILMCCD-RAW ".
        if head.hasPrefix(RAFReader.magic) { return .raf }
        // Minolta MRW: "\0MRM".
        if head.hasPrefix(MRWReader.magic) { return .mrw }
        // [AVI RIFF File Reference] "RIFF" size "AVI ".
        if head.hasPrefix(Array("RIFF".utf8)), head.matches(Array("AVI ".utf8), at: 8) { return .avi }
        // [RFC 8794 11.2] An EBML header; its DocType tells Matroska from WebM [RFC 9559]. A
        // DocType past the first bytes is read as Matroska; another EBML DocType is no video.
        if head.hasPrefix(MatroskaReader.magic) {
            switch MatroskaReader.docType(head) {
            case "webm": return .webm
            case "matroska", nil: return .mkv
            default: return .unknown
            }
        }
        // [FLV 10.1 E.2] "FLV" version 1.
        if head.hasPrefix(FLVReader.magic) { return .flv }
        // [ASF 10.1] The Header Object's GUID.
        if head.hasPrefix(ASFReader.magic) { return .asf }
        // [TIFF 6.0 2] "II*\0" / "MM\0*"; also BigTIFF-free TIFF-based raw (DNG, NEF, CR2, ARW...).
        if ExifHeader.startsTIFF(head) { return .tiff }
        // Panasonic RW2 ("IIU\0") and Olympus ORF ("IIRO", "IIRS", "MMOR") use other magic
        // numbers over the TIFF layout.
        if head.hasPrefix([0x49, 0x49, 0x55, 0x00]) { return .rw2 }
        if head.hasPrefix([0x49, 0x49, 0x52, 0x4F]) || head.hasPrefix([0x49, 0x49, 0x52, 0x53])
            || head.hasPrefix([0x4D, 0x4D, 0x4F, 0x52])
        {
            return .orf
        }
        let bmff = detectISOBMFF(head)
        // [ISO/IEC 13818-1 2.4.3] A transport stream: the sync byte 0x47 every 188 bytes, or
        // every 192 after a 4-byte time stamp.
        if bmff == .unknown, TransportStreamReader.layout(head) != nil { return .m2ts }
        // [ISO/IEC 13818-1 2.5.3.3] A program stream's first pack header.
        if bmff == .unknown, ProgramStreamReader.starts(head) { return .mpeg }
        return bmff
    }

    /// [ISO 14496-12 4.3] The `ftyp` box names a major brand and compatible brands.
    /// QuickTime files may start with `wide`, `free`, `mdat` or `moov` instead of `ftyp`.
    static func detectISOBMFF(_ head: [UInt8]) -> MediaFormat {
        guard head.count >= 8 else { return .unknown }
        var r = ByteReader(head)
        guard let size = r.u32be(), let type = r.fourCC() else { return .unknown }
        if type != "ftyp" {
            if ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(type), size >= 8 { return .mov }
            return .unknown
        }
        var brands: [String] = []
        if let major = r.fourCC() { brands.append(major) }
        _ = r.skip(4)  // minor version
        let boxEnd = min(Int(size), head.count)
        while r.offset + 4 <= boxEnd, let b = r.fourCC() { brands.append(b) }
        let known = classify(brands: brands)
        // Cameras and phones keep inventing brands (Nikon "niko", SD Video "sdv ", vendors'
        // own); an `ftyp` box that holds at least a major brand and a minor version makes the
        // file ISO BMFF whatever the brands say [ISO 14496-12 4.3.1], so it is walked as a
        // generic movie, as exiftool does, rather than refused.
        if known == .unknown, size >= 16, size <= 4096 { return .mp4 }
        return known
    }

    /// Major brand first, then the compatible ones, so `heic` major beats a `mif1` compatible.
    static func classify(brands: [String]) -> MediaFormat {
        for b in brands {
            switch b {
            case "avif", "avis": return .avif
            case "heic", "heix", "heim", "heis", "hevc", "hevx": return .heic
            case "mif1", "msf1", "heif": return .heif
            case "qt  ": return .mov
            case "crx ": return .cr3
            case "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "M4VH", "M4VP",
                "3gp4", "3gp5", "3gp6", "3g2a", "3gs7", "MSNV", "dash", "f4v ", "mmp4", "XAVC", "NDAS",
                "NDSC", "NDSH", "NDSM", "NDSP", "NDSS", "NDXC", "NDXH", "NDXM", "NDXP", "NDXS":
                return .mp4
            default: continue
            }
        }
        return .unknown
    }
}

extension FormatDetector {
    /// The container reader of each format: the one place besides `detect` that a new format
    /// is added to.
    package static func readContainer(_ reader: BoundedReader, format: MediaFormat) -> ContainerFindings {
        switch format {
        case .jpeg: return JPEGReader.read(reader)
        case .png: return PNGReader.read(reader)
        case .gif: return GIFReader.read(reader)
        case .webp: return WebPReader.read(reader)
        case .avi: return AVIReader.read(reader)
        case .raf: return RAFReader.read(reader)
        case .mrw: return MRWReader.read(reader)
        case .tiff, .rw2, .orf: return TIFFReader.read(reader, format: format)
        case .mkv, .webm: return MatroskaReader.read(reader, format: format)
        case .jxl: return JXLReader.read(reader)
        case .heic, .heif, .avif: return HEIFReader.read(reader, format: format)
        case .mov, .mp4, .cr3: return QuickTimeReader.read(reader, format: format)
        case .m2ts: return TransportStreamReader.read(reader)
        case .mpeg: return ProgramStreamReader.read(reader)
        case .flv: return FLVReader.read(reader)
        case .asf: return ASFReader.read(reader)
        case .unknown: return ContainerFindings(format: .unknown)
        }
    }
}
