import Foundation

extension CodingUserInfoKey {
    // swift-format-ignore: NeverForceUnwrap
    // (The initializer fails only for keys it cannot represent; this constant is not one of them.)
    /// The `TimeZone` in which an encoder writes capture dates that need one (dates without an
    /// offset, and instants); UTC when unset. Decoding does not need it.
    public static let photoMetaZone = CodingUserInfoKey(rawValue: "photometa.zone")!
}

extension Encoder {
    var photoMetaZone: TimeZone {
        userInfo[.photoMetaZone] as? TimeZone ?? TimeZone(secondsFromGMT: 0) ?? .current
    }
}

/// The report's shape (docs/json.md): the same keys as the CLI's `--json`, so its output decodes
/// into `MediaAsset` with `JSONDecoder`.
extension MediaAsset: Codable {
    enum CodingKeys: String, CodingKey {
        case schema, path, pathBytes, format, kind, animated, frames, captured, make, model, software, lens, orientation, rotation
        case width, height, duration, gps, thumbnail, contentIdentifier, screenshotEvidence, livePhotoPair
        case livePhotoEvidence, motionPhoto, displayWidth, displayHeight
        case fileSize, truncated, diagnostics, error, errorCode
    }

    enum ThumbnailKeys: String, CodingKey { case bytes }

    /// Reads the report's object (docs/json.md).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let schema = try c.decodeIfPresent(Int.self, forKey: .schema), schema > AssetReport.schemaVersion {
            throw DecodingError.dataCorruptedError(
                forKey: .schema, in: c,
                debugDescription: "schema \(schema) is newer than \(AssetReport.schemaVersion): written by a newer photometa")
        }
        let path = try c.decodePath(forKey: .path, bytesKey: .pathBytes)
        self.init(path: path, format: try c.decode(MediaFormat.self, forKey: .format))
        kind = try c.decode(MediaKind.self, forKey: .kind)
        animated = try c.decodeIfPresent(Bool.self, forKey: .animated)
        frameCount = try c.decodeIfPresent(Int.self, forKey: .frames)
        captured = try c.decodeIfPresent(CaptureDate.self, forKey: .captured)
        make = try c.decodeIfPresent(String.self, forKey: .make)
        model = try c.decodeIfPresent(String.self, forKey: .model)
        software = try c.decodeIfPresent(String.self, forKey: .software)
        lensModel = try c.decodeIfPresent(String.self, forKey: .lens)
        orientation = try c.decodeIfPresent(Int.self, forKey: .orientation)
        rotation = try c.decodeIfPresent(Int.self, forKey: .rotation)
        width = try c.decodeIfPresent(Int.self, forKey: .width)
        height = try c.decodeIfPresent(Int.self, forKey: .height)
        displayWidth = try c.decodeIfPresent(Int.self, forKey: .displayWidth)
        displayHeight = try c.decodeIfPresent(Int.self, forKey: .displayHeight)
        durationSeconds = try c.decodeIfPresent(Double.self, forKey: .duration)
        gps = try c.decodeIfPresent(GPS.self, forKey: .gps)
        if try c.decodeNil(forKey: .thumbnail) == false {
            let t = try c.nestedContainer(keyedBy: ThumbnailKeys.self, forKey: .thumbnail)
            thumbnailBytes = try t.decode(Int.self, forKey: .bytes)
        }
        contentIdentifier = try c.decodeIfPresent(String.self, forKey: .contentIdentifier)
        screenshotEvidence = try c.decodeIfPresent([ScreenshotEvidence].self, forKey: .screenshotEvidence) ?? []
        livePhotoPair = try c.decodeIfPresent(String.self, forKey: .livePhotoPair)
        livePhotoEvidence = try c.decodeIfPresent(LivePhotoEvidence.self, forKey: .livePhotoEvidence)
        motionPhoto = try c.decodeIfPresent(MotionPhoto.self, forKey: .motionPhoto)
        fileSize = try c.decodeIfPresent(Int64.self, forKey: .fileSize)
        truncated = try c.decodeIfPresent(Bool.self, forKey: .truncated) ?? false
        diagnostics = try c.decodeIfPresent([Diagnostic].self, forKey: .diagnostics) ?? []
        // Decoded by its code; the message only fills what the code leaves open ("a FIFO").
        if let code = try c.decodeIfPresent(String.self, forKey: .errorCode) {
            let message = try c.decodeIfPresent(String.self, forKey: .error) ?? ""
            guard let e = FileReadError(code: code, message: message) else {
                throw DecodingError.dataCorruptedError(forKey: .errorCode, in: c, debugDescription: "unknown error code \(code)")
            }
            error = e
        }
    }

    /// Writes the report's object; `captured` in the encoder's `photoMetaZone`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(AssetReport.schemaVersion, forKey: .schema)
        try c.encodePath(path, forKey: .path, bytesKey: .pathBytes)
        try c.encode(format, forKey: .format)
        try c.encode(kind, forKey: .kind)
        try c.encode(animated, forKey: .animated)
        try c.encode(frameCount, forKey: .frames)
        try c.encode(captured, forKey: .captured)
        try c.encode(make, forKey: .make)
        try c.encode(model, forKey: .model)
        try c.encode(software, forKey: .software)
        try c.encode(lensModel, forKey: .lens)
        try c.encode(orientation, forKey: .orientation)
        try c.encode(rotation, forKey: .rotation)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        if let displayWidth, let displayHeight {
            try c.encode(displayWidth, forKey: .displayWidth)
            try c.encode(displayHeight, forKey: .displayHeight)
        }
        try c.encode(durationSeconds, forKey: .duration)
        try c.encode(gps, forKey: .gps)
        if let thumbnailBytes {
            var t = c.nestedContainer(keyedBy: ThumbnailKeys.self, forKey: .thumbnail)
            try t.encode(thumbnailBytes, forKey: .bytes)
        } else {
            try c.encodeNil(forKey: .thumbnail)
        }
        try c.encode(contentIdentifier, forKey: .contentIdentifier)
        try c.encode(screenshotEvidence, forKey: .screenshotEvidence)
        try c.encode(livePhotoPair, forKey: .livePhotoPair)
        try c.encode(livePhotoEvidence, forKey: .livePhotoEvidence)
        try c.encodeIfPresent(motionPhoto, forKey: .motionPhoto)
        try c.encode(fileSize, forKey: .fileSize)
        try c.encode(truncated, forKey: .truncated)
        try c.encode(diagnostics, forKey: .diagnostics)
        if let error {
            try c.encode(error.description, forKey: .error)
            try c.encode(error.code, forKey: .errorCode)
        }
    }
}

/// `{"lat": ..., "lon": ...}`, rounded to 7 decimals as in the report.
extension MediaAsset.GPS: Codable {
    enum CodingKeys: String, CodingKey { case lat, lon }

    /// Reads `{"lat": ..., "lon": ...}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(latitude: try c.decode(Double.self, forKey: .lat), longitude: try c.decode(Double.self, forKey: .lon))
    }

    /// Writes `{"lat": ..., "lon": ...}`, rounded to 7 decimals.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(AssetReport.round7(latitude), forKey: .lat)
        try c.encode(AssetReport.round7(longitude), forKey: .lon)
    }
}

/// The report's `captured` object. Encoding renders it in the encoder's zone; decoding rebuilds
/// the date from what the file said: `offsetSource` "zone" marks an instant (read from `utc`),
/// an `offset` a wall clock with a known offset, neither a wall clock without one.
extension CaptureDate: Codable {
    enum CodingKeys: String, CodingKey { case local, offset, utc, source, offsetSource, assumed, sidecar }

    /// Reads the `captured` object back into what the file said.
    public init(from decoder: any Decoder) throws {
        try self.init(decodingWithoutSidecar: decoder)
        sidecar = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .sidecar)
    }

    private init(decodingWithoutSidecar decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let source = try c.decode(DateSource.self, forKey: .source)
        let offsetSource = try c.decodeIfPresent(OffsetSource.self, forKey: .offsetSource)
        func stamp(_ key: CodingKeys) throws -> DateTextParser.Stamp {
            let text = try c.decode(String.self, forKey: key)
            guard case .success(let s) = DateTextParser.iso8601(text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not an ISO 8601 date: \(text)")
            }
            return s
        }
        if offsetSource == .zone {
            self.init(.instant(utc: try stamp(.utc).local), source: source)
            return
        }
        let local = try stamp(.local).local
        if let text = try c.decodeIfPresent(String.self, forKey: .offset) {
            guard let offset = DateTextParser.offset(text) else {
                throw DecodingError.dataCorruptedError(forKey: .offset, in: c, debugDescription: "not a UTC offset: \(text)")
            }
            self.init(.wall(local, offset: offset, offsetSource: offsetSource), source: source)
        } else {
            self.init(.wall(local, offset: nil, offsetSource: nil), source: source)
        }
    }

    /// Writes the `captured` object, rendered in the encoder's `photoMetaZone`.
    public func encode(to encoder: any Encoder) throws {
        let r = rendered(in: encoder.photoMetaZone)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(r.local, forKey: .local)
        try c.encode(r.offset, forKey: .offset)
        try c.encode(r.utc, forKey: .utc)
        try c.encode(source, forKey: .source)
        try c.encode(r.offsetSource, forKey: .offsetSource)
        try c.encode(r.assumed, forKey: .assumed)
        try c.encodeIfPresent(sidecar, forKey: .sidecar)
    }
}

/// A diagnostic is written as `"domain: message"`.
extension Diagnostic: Codable {
    /// Reads `"domain: message"`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if let r = text.range(of: ": ") {
            self.init(String(text[..<r.lowerBound]), String(text[r.upperBound...]))
        } else {
            self.init("", text)
        }
    }

    /// Writes `"domain: message"`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// Evidence is written as its description (`filename:PATTERN`, `folder:Screenshots`, ...).
extension ScreenshotEvidence: Codable {
    /// Reads the evidence from its description.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        if text == "folder:Screenshots" {
            self = .folder
        } else if text.hasPrefix("software:") {
            self = .software(String(text.dropFirst("software:".count)))
        } else if text.hasPrefix("filename:") {
            self = .fileName(pattern: String(text.dropFirst("filename:".count)))
        } else if text.hasSuffix("=Screenshot") {
            self = .userComment(source: String(text.dropLast("=Screenshot".count)))
        } else if text.hasPrefix("screenSize:"), case let parts = text.dropFirst("screenSize:".count).split(separator: "x"),
            parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1])
        {
            self = .screenSize(width: w, height: h)
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown screenshot evidence: \(text)")
        }
    }

    /// Writes the evidence's description.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// Written as its code and message, `{"code": "ENOENT", "message": "no such file or directory"}`;
/// read by its code (the message only fills what the code leaves open).
extension FileReadError: Codable {
    enum CodingKeys: String, CodingKey { case code, message }

    /// Reads the error by its code.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let code = try c.decode(String.self, forKey: .code)
        guard let e = FileReadError(code: code, message: try c.decodeIfPresent(String.self, forKey: .message) ?? "") else {
            throw DecodingError.dataCorruptedError(forKey: .code, in: c, debugDescription: "unknown file error code: \(code)")
        }
        self = e
    }

    /// Writes the code and the message.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(description, forKey: .message)
    }
}
