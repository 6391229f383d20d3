/// Decides a file's kind from values the earlier stages produced. Pure, and about the file
/// alone: a still becomes a Live Photo later, when `LivePhotoPairing` (which sees the folder)
/// pairs it with its movie.
///
/// Order: video → Live Photo (a Motion Photo, whose video is inside the still) → gif →
/// screenshot (any evidence) → photo; `unknown` when the format is not recognised, or is a
/// movie's container holding sound only (a voice memo, an `.m4a` song).
package enum KindClassifier {
    package struct Input: Sendable {
        package var format: MediaFormat
        package var make: String?
        package var model: String?
        /// The software the file names (`FieldPrecedence.software`).
        package var software: String?
        package var exifUserComment: String?
        package var xmpUserComment: String?
        package var width: Int?
        package var height: Int?
        /// The path as given; its name and folders are screenshot evidence.
        package var path: String
        /// The still carries its own video (a Motion Photo): a Live Photo by itself.
        package var isMotionPhoto: Bool
        /// A movie container holding sound only (a voice memo, an `.m4a` song).
        package var isAudioOnly: Bool

        package init(
            format: MediaFormat, make: String? = nil, model: String? = nil, software: String? = nil,
            exifUserComment: String? = nil,
            xmpUserComment: String? = nil, width: Int? = nil, height: Int? = nil, path: String, isMotionPhoto: Bool = false,
            isAudioOnly: Bool = false
        ) {
            self.isMotionPhoto = isMotionPhoto
            self.isAudioOnly = isAudioOnly
            self.format = format
            self.make = make
            self.model = model
            self.software = software
            self.exifUserComment = exifUserComment
            self.xmpUserComment = xmpUserComment
            self.width = width
            self.height = height
            self.path = path
        }
    }

    package static func classify(_ i: Input) -> (kind: MediaKind, evidence: [ScreenshotEvidence]) {
        if i.format == .unknown { return (.unknown, []) }
        // Sound in a movie's container is no picture: not a video to offer or list.
        if i.format.isVideo { return (i.isAudioOnly ? .unknown : .video, []) }
        let evidence = screenshotEvidence(i)
        if i.isMotionPhoto { return (.livePhoto, evidence) }
        if i.format == .gif { return (.gif, evidence) }
        if !evidence.isEmpty { return (.screenshot, evidence) }
        return (.photo, [])
    }

    package static func screenshotEvidence(_ i: Input) -> [ScreenshotEvidence] {
        var evidence: [ScreenshotEvidence] = []
        if let c = i.exifUserComment, c.caseInsensitiveEquals("Screenshot") {
            evidence.append(.userComment(source: "exif.UserComment"))
        }
        if let c = i.xmpUserComment, c.caseInsensitiveEquals("Screenshot") {
            evidence.append(.userComment(source: "xmp.UserComment"))
        }
        if let s = i.software, ScreenshotSoftware.isScreenshotTool(s) {
            evidence.append(.software(s))
        }
        let slash = i.path.lastIndex(ofASCII: UInt8(ascii: "/"))
        let name = slash.map { i.path[i.path.utf8.index(after: $0)...] } ?? i.path[...]
        if FileNameDateParser.mayBeScreenshot(name), let n = FileNameDateParser.parse(String(name)), n.isScreenshot {
            evidence.append(.fileName(pattern: n.pattern))
        }
        if let slash, hasScreenshotsFolder(i.path[..<slash]) {
            evidence.append(.folder)
        }
        if i.format == .png, (i.make ?? "").isEmpty, (i.model ?? "").isEmpty, let w = i.width, let h = i.height,
            ScreenSizes.isScreen(width: w, height: h)
        {
            evidence.append(.screenSize(width: w, height: h))
        }
        return evidence
    }
}

/// Made once: an array made per call was a tenth of this check's cost.
private let screenshotsFolderName = Array("screenshots".utf8)

/// A path component equal to "screenshots" in any case, found on the bytes (no splitting or
/// lowercasing of every path).
func hasScreenshotsFolder(_ folders: Substring) -> Bool {
    let target = screenshotsFolderName
    var matched = 0  // bytes of target matched in the current component; -1: no match
    for b in folders.utf8 {
        if b == 0x2F {
            if matched == target.count { return true }
            matched = 0
            continue
        }
        guard matched >= 0, matched < target.count else {
            matched = -1
            continue
        }
        let lower = b >= 0x41 && b <= 0x5A ? b + 0x20 : b
        matched = lower == target[matched] ? matched + 1 : -1
    }
    return matched == target.count
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool { lowercased() == other.lowercased() }
}
