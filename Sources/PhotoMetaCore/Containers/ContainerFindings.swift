/// What a container reader found, in one shape for every format: EXIF streams and XMP packets
/// (raw: decoding them is the next stage's job, libexif for EXIF, `XMPReader` for XMP), the
/// picture's size and frames as the container states them, typed evidence by source
/// (`FieldEvidence`: make, model, location, duration...) and the dates it states
/// (`DateClue`). `Inspector` decides among them with the precedence tables and never needs to
/// know which format spoke.
package struct ContainerFindings: Sendable {
    /// An EXIF stream: TIFF-structured bytes ("II*\0" / "MM\0*") whose first directory is
    /// `firstIFD` (a JPEG's APP1 starts at IFD0; Canon CR3's CMT2 and CMT4 start at the Exif
    /// and GPS IFDs).
    package struct ExifStream: Sendable, Equatable {
        /// "Exif\0\0" then the TIFF stream: the form libexif reads, kept as a JPEG's APP1
        /// holds it, so the segment's bytes reach libexif without a copy for each stage.
        package var app1: [UInt8]
        package var firstIFD: ExifDecoder.FirstIFD

        init(tiff: [UInt8], firstIFD: ExifDecoder.FirstIFD) {
            self.init(app1: ExifHeader.prefix + tiff, firstIFD: firstIFD)
        }

        init(app1: [UInt8], firstIFD: ExifDecoder.FirstIFD) {
            self.app1 = app1
            self.firstIFD = firstIFD
        }

        /// The TIFF stream alone.
        package var tiff: [UInt8] { Array(app1.dropFirst(ExifHeader.prefix.count)) }
    }

    package var format: MediaFormat
    /// The EXIF streams, at most one per first IFD, the first found kept.
    package private(set) var exifStreams: [ExifStream] = []
    /// XMP packets (usually one) as raw UTF-8 bytes.
    package var xmp: [[UInt8]] = []
    package var width: Int?
    package var height: Int?
    /// The size a player shows the frames at, when the container says it differs from the
    /// stored size (Matroska's `DisplayWidth`/`DisplayHeight`, anamorphic video).
    package var displayWidth: Int?
    package var displayHeight: Int?
    /// HEIF `irot`: anticlockwise rotation in degrees (0, 90, 180, 270).
    package var rotation: Int?
    /// GIF frame count; `frameCountIsLowerBound` when the scan stopped at a cap.
    package var frameCount: Int?
    package var frameCountIsLowerBound = false
    package var animated: Bool?
    /// Facts the container states, by where in the container they were found.
    package var evidence: [EvidenceSource: FieldEvidence] = [:]
    /// Dates the container states, with their source.
    package var dates: [DateClue] = []
    /// The EXIF stream's offsets count from the start of the file (a TIFF file is its own
    /// EXIF stream), so its image data can be checked against the file's size.
    package var exifOffsetsAreFileOffsets = false
    /// Bytes of text held for this file so far (XMP kept, PNG text inflated), against
    /// `Limits.expandedTextMax`.
    package private(set) var expandedText = 0
    /// Where embedded previews may be found (`PreviewFinder` reads them; metadata never does).
    package var previewHints = PreviewHints()
    /// A Motion Photo's video inside the still, and whose form placed it (`MotionPhotoLocator`).
    package var motionPhoto: MotionPhoto?
    package var motionPhotoEvidence: LivePhotoEvidence?
    /// Problems found while walking the structure.
    package var diagnostics: [Diagnostic] = []
    /// The structure ends before it should (a cut or half-written file).
    package var truncated = false
    /// A movie whose tracks are sound only (a voice memo, an `.m4a` song): no picture to show.
    package var audioOnly = false

    package init(format: MediaFormat) { self.format = format }

    mutating func note(_ domain: String, _ message: String) {
        diagnostics.append(Diagnostic(domain, message))
    }

    /// Records a read failure; an out-of-bounds read means the file is cut short.
    mutating func note(_ domain: String, _ failure: ReadFailure, while what: String) {
        if failure == .outOfBounds { truncated = true }
        note(domain, "\(what): \(failure)")
    }

    /// Keys of the notes made once per file (a hostile file repeats the same problem thousands
    /// of times; one line says it).
    private var notedOnce: Set<String> = []

    /// Notes `message` the first time `key` comes up in this file.
    package mutating func noteOnce(_ domain: String, _ key: String, _ message: String) {
        guard notedOnce.insert(key).inserted else { return }
        note(domain, message)
    }

    /// The room left for text under `Limits.expandedTextMax`.
    package var textRoom: Int { max(0, Limits.expandedTextMax - expandedText) }

    /// Counts `n` bytes of inflated text against the per-file budget.
    package mutating func spendText(_ n: Int) { expandedText += n }

    /// Keeps an XMP packet, within `Limits.xmpPacketsMax` packets and the per-file text budget;
    /// a packet past either is noted and dropped.
    package mutating func addXMP(_ packet: [UInt8], domain: String, counted: Bool = true) {
        guard xmp.count < Limits.xmpPacketsMax else {
            noteOnce(domain, "xmp count", "more than \(Limits.xmpPacketsMax) XMP packets; the rest ignored")
            return
        }
        if counted {
            guard packet.count <= textRoom else {
                noteOnce(
                    domain, "text budget", "XMP packets past the \(Limits.expandedTextMax)-byte text budget of the file ignored")
                return
            }
            expandedText += packet.count
        }
        xmp.append(packet)
    }

    /// How much of an EXIF payload of `length` bytes to read: all of it up to libexif's window,
    /// noting the cut when there is one (the IFDs usually come first, so a cut loses at most
    /// the tail, typically the thumbnail).
    mutating func exifLength(_ length: Int, domain: String) -> Int {
        if length > Limits.exifPayloadMax {
            note(domain, "EXIF block of \(length) bytes cut to \(Limits.exifPayloadMax) (libexif's input limit)")
            return Limits.exifPayloadMax
        }
        return length
    }

    /// The EXIF stream that starts at IFD0 (the one every format but CR3 has).
    package var exif: [UInt8]? { exifStream(startingAt: .ifd0) }

    package func exifStream(startingAt first: ExifDecoder.FirstIFD) -> [UInt8]? {
        exifStreams.first { $0.firstIFD == first }?.tiff
    }

    /// The stream that starts at `first`, in libexif's form ("Exif\0\0" then TIFF).
    package func exifInput(startingAt first: ExifDecoder.FirstIFD) -> ExifStream? {
        exifStreams.first { $0.firstIFD == first }
    }

    /// True once an EXIF stream that starts at IFD0 was found.
    package var hasExif: Bool { exifStreams.contains { $0.firstIFD == .ifd0 } }

    /// Adds a TIFF stream that starts at another IFD than IFD0, keeping the first one per IFD.
    mutating func addExifStream(_ tiff: [UInt8], startingAt first: ExifDecoder.FirstIFD) {
        guard first != .ifd0, exifInput(startingAt: first) == nil else { return }
        exifStreams.append(ExifStream(tiff: tiff, firstIFD: first))
    }

    /// Adds an EXIF payload, with or without a leading "Exif\0\0", keeping the first one; every
    /// container hands on the same shape (a payload that has the header is kept as it is).
    mutating func setExif(_ raw: [UInt8], domain: String) {
        guard !hasExif else {
            note(domain, "more than one EXIF block; using the first")
            return
        }
        let headed = raw.starts(with: ExifHeader.prefix)
        guard ExifHeader.startsTIFF(raw.dropFirst(headed ? ExifHeader.prefix.count : 0)) else {
            note(domain, "EXIF block does not start with a TIFF header; ignored")
            return
        }
        exifStreams.append(headed ? ExifStream(app1: raw, firstIFD: .ifd0) : ExifStream(tiff: raw, firstIFD: .ifd0))
    }
}

enum ExifHeader {
    /// [EXIF 2.32 4.7.2] APP1 identifier "Exif\0\0".
    static let prefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    /// [TIFF 6.0 2] A TIFF stream starts "II*\0" (little-endian) or "MM\0*" (big-endian).
    static func startsTIFF<C: Collection>(_ b: C) -> Bool where C.Element == UInt8 {
        b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    }
}

/// What a container reader noticed about embedded previews, for `PreviewFinder`: offsets in the
/// file, never the preview bytes (a metadata read must not pay for them).
package struct PreviewHints: Sendable, Equatable {
    /// JPEG: the file offset of the APP1 Exif block's TIFF header (IFD1's thumbnail offset
    /// counts from it) [EXIF 2.32 4.5.4].
    package var exifTIFFOffset: Int64?
    /// JPEG APP2 "MPF\0": the file offset of its TIFF header, from which the MP entries'
    /// offsets count [CIPA DC-007 5.2.3.3].
    package var mpfTIFFOffset: Int64?
    /// RAF: the embedded JPEG's file range (the header gives it).
    package var rawJPEG: ClosedRange<Int64>?
    /// HEIF: the size of the primary item's largest `thmb` item [ISO 23008-12 6.4.4].
    package var heifThumbnailWidth: Int?
    package var heifThumbnailHeight: Int?

    package init() {}
}
