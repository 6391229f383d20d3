/// Where a fact other than a date came from. The precedence table (`FieldPrecedence`) orders
/// these per field; a source it does not list for a field is never used for that field.
package enum EvidenceSource: String, Sendable, CaseIterable {
    /// The EXIF record (every EXIF stream of the file, merged).
    case exif
    /// The XMP packets.
    case xmp
    /// QuickTime `meta`/`keys`/`ilst` items named `com.apple.quicktime.*` [QuickTime File
    /// Format, Metadata].
    case quickTimeKeys = "quicktime.keys"
    /// QuickTime `udta` ©-atoms (`©mak`, `©mod`, `©xyz`).
    case quickTimeUserData = "quicktime.udta"
    /// QuickTime `ilst` items without a `keys` name, by their atom type (`©xyz`).
    case quickTimeItemList = "quicktime.ilst"
    /// The movie header `mvhd` [ISO 14496-12 8.2.2].
    case quickTimeMovieHeader = "quicktime.mvhd"
    /// AVI's main header `avih` [AVI RIFF File Reference].
    case riffMainHeader = "riff.avih"
    /// Matroska's segment information `Info` [RFC 9559 5.1.2]: `Duration`, `WritingApp`.
    case matroskaInfo = "matroska.Info"
    /// The file's sidecars (XMP sidecar, Google Takeout JSON): below everything the file says.
    case sidecar
    /// A JPEG XL codestream's `ImageMetadata` [ISO/IEC 18181-1]: its orientation.
    case jxlCodestream = "jxl.codestream"
    /// A PNG's textual chunks with predefined keywords [PNG 1.2 11.3.4.2]: its `Software`.
    case pngText = "png.text"
    /// AVCHD's MDPM user data in an H.264 stream (`TransportStreamReader`): the make.
    case h264UserData = "h264.mdpm"
    /// A transport stream's program clock references (`TransportStreamClock`): its duration.
    case transportStreamClock = "m2ts.pcr"
    /// ASF's File Properties Object [ASF 3.2]: the duration.
    case asfFileProperties = "asf.FileProperties"
    /// FLV's script tag `onMetaData` [FLV 10.1 E.5]: `duration`, `encoder`.
    case flvMetaData = "flv.onMetaData"
    /// FLV's last tag [FLV 10.1 E.4.1]: its time, the duration when `onMetaData` states none.
    case flvLastTag = "flv.lastTag"

    /// Hashed by case. The standard library's default for a `RawRepresentable` hashes the raw
    /// value's text, on every lookup of every file's evidence (docs/performance.md, "The
    /// fourth pass").
    package func hash(into hasher: inout Hasher) {
        let ordinal: Int
        switch self {
        case .exif: ordinal = 0
        case .xmp: ordinal = 1
        case .quickTimeKeys: ordinal = 2
        case .quickTimeUserData: ordinal = 3
        case .quickTimeItemList: ordinal = 4
        case .quickTimeMovieHeader: ordinal = 5
        case .riffMainHeader: ordinal = 6
        case .matroskaInfo: ordinal = 7
        case .sidecar: ordinal = 8
        case .jxlCodestream: ordinal = 9
        case .pngText: ordinal = 10
        case .h264UserData: ordinal = 11
        case .transportStreamClock: ordinal = 12
        case .asfFileProperties: ordinal = 13
        case .flvMetaData: ordinal = 14
        case .flvLastTag: ordinal = 15
        }
        hasher.combine(ordinal)
    }
}

/// The facts one source states, typed, before precedence picks among sources. Every field is
/// optional: a source states what it knows.
package struct FieldEvidence: Sendable, Equatable {
    package var make: String?
    package var model: String?
    package var software: String?
    package var lensModel: String?
    /// [EXIF 2.32 4.6.4 A, Orientation] 1...8 as written.
    package var orientation: Int?
    /// The picture's pixel size as this source states it.
    package var width: Int?
    package var height: Int?
    package var location: MediaAsset.GPS?
    /// Apple's Live Photo pairing identifier.
    package var contentIdentifier: String?
    package var durationSeconds: Double?

    package init(
        make: String? = nil, model: String? = nil, software: String? = nil, lensModel: String? = nil,
        orientation: Int? = nil, location: MediaAsset.GPS? = nil, contentIdentifier: String? = nil,
        durationSeconds: Double? = nil
    ) {
        self.make = make
        self.model = model
        self.software = software
        self.lensModel = lensModel
        self.orientation = orientation
        self.location = location
        self.contentIdentifier = contentIdentifier
        self.durationSeconds = durationSeconds
    }
}

extension ExifRecord {
    /// What the EXIF record states, as evidence.
    package var fieldEvidence: FieldEvidence {
        var e = FieldEvidence(
            make: make, model: model, software: software, lensModel: lensModel, orientation: orientation,
            contentIdentifier: contentIdentifier)
        e.width = pixelWidth
        e.height = pixelHeight
        if let gpsLatitude, let gpsLongitude {
            e.location = MediaAsset.GPS(latitude: gpsLatitude, longitude: gpsLongitude)
        }
        return e
    }
}

extension XMPRecord {
    /// What the XMP packets state, as evidence (dates are `dateClues`).
    package var fieldEvidence: FieldEvidence {
        FieldEvidence(make: make, model: model, orientation: orientation, location: location)
    }

    /// [XMP Part 2 8.2, 8.4] The dates, as written: ISO 8601 text.
    package var dateClues: [DateClue] {
        [
            (dateTimeOriginal, DateSource.xmpDateTimeOriginal, DateClue.TextForm.iso8601),
            (dateCreated, .xmpDateCreated, .iso8601), (createDate, .xmpCreateDate, .iso8601),
            (gpsTimeStamp, .xmpGPSTimeStamp, .utcISO8601),
        ].compactMap { text, source, form in text.map { DateClue(source, .text($0, form)) } }
    }
}
