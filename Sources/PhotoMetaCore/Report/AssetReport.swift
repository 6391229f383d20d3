import Foundation

/// Turns a `MediaAsset` into the report formats: the JSON object of docs/json.md and the text
/// block for people. The zone is applied here, and only where the file gives no offset.
public struct AssetReport: Sendable {
    /// The zone for dates without an offset, and for showing instants.
    public var zone: TimeZone

    /// A report that shows dates in `zone` where the file gives no offset.
    public init(zone: TimeZone) { self.zone = zone }

    /// The `schema` of every JSON row photometa writes (docs/json.md says what changes bump
    /// it): a reader checks it once instead of guessing from the keys.
    public static let schemaVersion = 1

    // MARK: JSON

    /// The JSON object of docs/json.md, keys in a fixed order.
    public func json(_ a: MediaAsset) -> String {
        var w = JSONWriter()
        write(a, to: &w)
        return w.output
    }

    /// Writes the row; `extra` adds keys at its end (`recent --thumbnail`'s picture).
    package func write(_ a: MediaAsset, to w: inout JSONWriter, extra: (inout JSONWriter) -> Void = { _ in }) {
        w.beginObject()
        w.field("schema", AssetReport.schemaVersion)
        w.field("path", a.path)
        // Only for a name that is not valid UTF-8: its exact bytes (docs/json.md).
        if PathBytes.hasRawBytes(a.path) { w.field("pathBytes", PathBytes.base64(a.path)) }
        w.field("format", a.format.rawValue)
        w.field("kind", a.kind.rawValue)
        w.field("animated", a.animated)
        w.field("frames", a.frameCount)
        w.key("captured")
        writeCaptured(a.captured, to: &w)
        w.field("make", a.make)
        w.field("model", a.model)
        w.field("software", a.software)
        w.field("lens", a.lensModel)
        w.field("orientation", a.orientation)
        w.field("rotation", a.rotation)
        w.field("width", a.width)
        w.field("height", a.height)
        if let dw = a.displayWidth, let dh = a.displayHeight {
            // Only where the container states a display size that differs (docs/json.md).
            w.field("displayWidth", dw)
            w.field("displayHeight", dh)
        }
        w.field("duration", a.durationSeconds)
        w.key("gps")
        if let g = a.gps {
            w.beginObject()
            w.field("lat", AssetReport.round7(g.latitude))
            w.field("lon", AssetReport.round7(g.longitude))
            w.endObject()
        } else {
            w.null()
        }
        w.key("thumbnail")
        if let t = a.thumbnailBytes {
            w.beginObject()
            w.field("bytes", t)
            w.endObject()
        } else {
            w.null()
        }
        w.field("contentIdentifier", a.contentIdentifier)
        w.key("screenshotEvidence")
        w.beginArray()
        for e in a.screenshotEvidence { w.string(e.description) }
        w.endArray()
        w.field("livePhotoPair", a.livePhotoPair)
        w.field("livePhotoEvidence", a.livePhotoEvidence?.rawValue)
        if let m = a.motionPhoto {
            // Only for a Motion Photo, as `error` only for an error (docs/json.md).
            w.key("motionPhoto")
            w.beginObject()
            w.field("offset", Int(m.offset))
            w.field("length", Int(m.length))
            w.field("duration", m.durationSeconds)
            w.endObject()
        }
        w.field("fileSize", a.fileSize.map { Int($0) })
        w.field("truncated", a.truncated)
        w.key("diagnostics")
        w.beginArray()
        for d in a.diagnostics { w.string(d.description) }
        w.endArray()
        if let e = a.error {
            w.field("error", e.description)
            w.field("errorCode", e.code)
        }
        extra(&w)
        w.endObject()
    }

    package func writeCaptured(_ c: CaptureDate?, to w: inout JSONWriter) {
        guard let c else {
            w.null()
            return
        }
        let r = c.rendered(in: zone)
        w.beginObject()
        w.field("local", r.local)
        w.field("offset", r.offset)
        w.field("utc", r.utc)
        w.field("source", c.source.rawValue)
        w.field("offsetSource", r.offsetSource?.rawValue)
        w.key("assumed")
        if let z = r.assumed {
            w.beginObject()
            w.field("zone", z.zone)
            w.field("offset", z.offset)
            w.field("utc", z.utc)
            w.endObject()
        } else {
            w.null()
        }
        // Present only for a sidecar's date (docs/json.md), so other lines keep their shape.
        if let s = c.sidecar { w.field("sidecar", s) }
        w.endObject()
    }

    /// Seven decimals of a degree is about a centimetre: more is float noise from the
    /// degrees/minutes/seconds sum.
    package static func round7(_ v: Double) -> Double { (v * 1e7).rounded() / 1e7 }

    // MARK: Text

    /// One block per file: the path, then aligned `key: value` lines for what is known.
    public func text(_ a: MediaAsset) -> String {
        var rows: [(String, String)] = []
        rows.append(("format", a.format.rawValue))
        if let e = a.error {
            rows.append(("error", e.description))
        } else {
            var kind = a.kind.rawValue
            if a.kind == .gif, let frames = a.frameCount {
                kind += a.animated == true ? " (animated, \(frames)\(a.frameCountIsLowerBoundMarker) frames)" : " (still)"
            } else if a.kind != .gif, a.animated == true {
                kind += a.frameCount.map { " (animated, \($0)\(a.frameCountIsLowerBoundMarker) frames)" } ?? " (animated)"
            }
            rows.append(("kind", kind))
            if let c = a.captured {
                let r = c.rendered(in: zone)
                switch c.clock {
                case .wall(_, .some, _):
                    rows.append(
                        (
                            "captured",
                            "\(r.local)\(r.offset ?? "")  [\(c.source.rawValue); offset from \(r.offsetSource?.rawValue ?? "?")]"
                        ))
                    rows.append(("utc", r.utc ?? ""))
                case .wall(_, .none, _):
                    rows.append(("captured", "\(r.local)  [\(c.source.rawValue); offset unknown]"))
                    if let z = r.assumed {
                        rows.append(("utc", "\(z.utc)  (assumed: zone \(z.zone), \(z.offset))"))
                    }
                case .instant:
                    rows.append(("captured", "\(r.utc ?? "")  [\(c.source.rawValue); an instant]"))
                    if let z = r.assumed {
                        rows.append(("local", "\(r.local)\(z.offset)  (in zone \(z.zone))"))
                    }
                }
            } else {
                rows.append(("captured", "unknown"))
            }
            if let sidecar = a.captured?.sidecar { rows.append(("sidecar", sidecar)) }
            // Nikon, Canon and others repeat the make in the model ("NIKON Z 6"): said once.
            let makeInModel = a.make.map { make in a.model?.lowercased().hasPrefix(make.lowercased() + " ") == true } ?? false
            let camera = [makeInModel ? nil : a.make, a.model].compactMap { $0 }.joined(separator: " ")
            if !camera.isEmpty { rows.append(("camera", camera)) }
            if let l = a.lensModel { rows.append(("lens", l)) }
            if let s = a.software { rows.append(("software", s)) }
            if let w = a.width, let h = a.height {
                let shown = a.displayWidth.flatMap { dw in a.displayHeight.map { " (shown \(dw) x \($0))" } } ?? ""
                rows.append(("size", "\(w) x \(h)" + shown))
            }
            if let o = a.orientation { rows.append(("orientation", "\(o)")) }
            if let r = a.rotation { rows.append(("rotation", "\(r)°")) }
            if let d = a.durationSeconds { rows.append(("duration", String(format: "%.2f s", d))) }
            if let g = a.gps { rows.append(("gps", "\(AssetReport.round7(g.latitude)), \(AssetReport.round7(g.longitude))")) }
            if let t = a.thumbnailBytes { rows.append(("thumbnail", "\(t) bytes")) }
            if let id = a.contentIdentifier { rows.append(("content id", id)) }
            if let p = a.livePhotoPair { rows.append(("live photo", p + (a.livePhotoEvidence.map { " (\($0.phrase))" } ?? ""))) }
            if let m = a.motionPhoto {
                let who = a.livePhotoEvidence.map { "\($0.phrase): " } ?? ""
                let plays = m.durationSeconds.map { String(format: ", %.1f s", $0) } ?? ""
                rows.append(("motion photo", "\(who)video of \(m.length) bytes at offset \(m.offset)\(plays)"))
            }
            if !a.screenshotEvidence.isEmpty {
                rows.append(("screenshot", a.screenshotEvidence.map(\.description).joined(separator: ", ")))
            }
            if a.truncated { rows.append(("truncated", "yes")) }
        }
        for d in a.diagnostics { rows.append(("note", d.description)) }
        let width = rows.map { $0.0.count }.max() ?? 0
        var out = TerminalText.escape(a.path) + "\n"
        for (k, v) in rows {
            out += "  " + k + ":" + String(repeating: " ", count: width - k.count + 1) + TerminalText.escape(v) + "\n"
        }
        return out
    }
}

extension MediaAsset {
    var frameCountIsLowerBoundMarker: String { frameCountIsLowerBound ? "+" : "" }
}
