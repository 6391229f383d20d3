import PhotoMetaCore

/// What `photometa` asks `photometa-thumbnailer` for, and the helper protocol's lines: one home
/// for the request (`ThumbnailRequest`, with its defaults), where the thumbnails go and whether
/// the cache is used, so the command, the helper and the library cannot drift apart.
///
/// Protocol (docs/thumbnails.md, "The helper process"): every line is `TabFields` (a tab,
/// newline or backslash inside a field is written `\t`, `\n`, `\\`). On the helper's standard
/// input, first the options line (`line`):
///
///     options <TAB> width=256 <TAB> height=256 <TAB> mode=fit <TAB> format=png <TAB> quality=80
///             <TAB> delivery=exact <TAB> maxPixels=100000000 <TAB> cache=1 [<TAB> out=DIR]
///
/// then one line per file, `PATH <TAB> NAME` (the `--out` name, empty without `--out`). On its
/// standard output one `ThumbnailReply` line per file, in the order given, as each is ready.
package struct ThumbnailJob: Sendable, Equatable {
    /// What to make.
    package var request: ThumbnailRequest
    /// The folder the thumbnails are written to (NAME of each file's line), nil for none.
    package var out: String?
    /// Whether the freedesktop cache is read and written.
    package var cache: Bool

    package init(request: ThumbnailRequest = ThumbnailRequest(), out: String? = nil, cache: Bool = true) {
        self.request = request
        self.out = out
        self.cache = cache
    }

    /// The options line (without its newline).
    package var line: String {
        var fields = [
            "options", "width=\(request.width)", "height=\(request.height)", "mode=\(request.mode.rawValue)",
            "format=\(request.format.rawValue)", "quality=\(request.quality)", "delivery=\(request.delivery.rawValue)",
            "maxPixels=\(request.maxPixels)", "cache=\(cache ? 1 : 0)",
        ]
        if let out { fields.append("out=\(out)") }
        return TabFields.line(fields)
    }

    /// Reads an options line; a key it does not know, a value that does not parse or a line that
    /// is not an options line gives nil. A key left out keeps `ThumbnailRequest`'s default.
    package init?(line: ArraySlice<UInt8>) {
        let fields = TabFields.fields(line)
        guard fields.first == "options" else { return nil }
        self.init()
        for field in fields.dropFirst() {
            guard let eq = field.firstIndex(of: "=") else { return nil }
            let value = String(field[field.index(after: eq)...])
            switch field[..<eq] {
            case "width":
                guard let v = Int(value) else { return nil }
                request.width = v
            case "height":
                guard let v = Int(value) else { return nil }
                request.height = v
            case "mode":
                guard let v = ThumbnailRequest.Mode(rawValue: value) else { return nil }
                request.mode = v
            case "format":
                guard let v = ThumbnailFormat(rawValue: value) else { return nil }
                request.format = v
            case "quality":
                guard let v = Int(value) else { return nil }
                request.quality = v
            case "delivery":
                guard let v = ThumbnailRequest.Delivery(rawValue: value) else { return nil }
                request.delivery = v
            case "maxPixels":
                guard let v = Int(value) else { return nil }
                request.maxPixels = v
            case "cache":
                guard value == "0" || value == "1" else { return nil }
                cache = value == "1"
            case "out": out = value
            default: return nil
            }
        }
    }
}

/// One file's answer from `photometa-thumbnailer`, a line of its standard output:
/// `INDEX <TAB> ok <TAB> PATH <TAB> WIDTH <TAB> HEIGHT <TAB> SOURCE <TAB> FORMAT` or
/// `INDEX <TAB> error <TAB> REASON` (TabFields). Not JSON: parsing 5,000 JSON lines cost more
/// than answering them from the cache.
package enum ThumbnailReply: Sendable, Equatable {
    /// A thumbnail made: where it is (nil when only its bytes exist), its size, its source
    /// (`Thumbnail.Source`'s raw value: cache, embedded.exif, decoded...) and its format. The
    /// reports' own type, so what the helper answers is what `thumbnail --json` and an offer
    /// print.
    package typealias Made = ThumbnailReport

    case made(index: Int, Made)
    case failed(index: Int, reason: String)

    /// The file's position in the request.
    package var index: Int {
        switch self {
        case .made(let i, _), .failed(let i, _): return i
        }
    }

    /// The line (without its newline).
    package var line: String {
        switch self {
        case .made(let i, let m):
            return TabFields.line(["\(i)", "ok", m.path ?? "", "\(m.width)", "\(m.height)", m.source, m.format])
        case .failed(let i, let reason): return TabFields.line(["\(i)", "error", reason])
        }
    }

    /// Reads a reply line; nil when it is not one.
    package init?(line: ArraySlice<UInt8>) {
        let fields = TabFields.fields(line)
        guard fields.count >= 3, let i = Int(fields[0]), i >= 0 else { return nil }
        switch fields[1] {
        case "ok":
            guard fields.count == 7, let w = Int(fields[3]), let h = Int(fields[4]) else { return nil }
            self = .made(
                index: i,
                Made(path: fields[2].isEmpty ? nil : fields[2], width: w, height: h, source: fields[5], format: fields[6]))
        case "error": self = .failed(index: i, reason: fields[2])
        default: return nil
        }
    }
}
