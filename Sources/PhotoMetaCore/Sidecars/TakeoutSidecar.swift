import Foundation

/// A Google Takeout JSON: Google Photos' record of a picture, kept beside it because the
/// exported file may have lost its EXIF. `photoTakenTime.timestamp` is the capture instant in
/// seconds since 1970, as a string; `geoData` the position, all zeros when unknown. `title` is
/// the picture's name: a JSON whose title names another picture is not this picture's (a cut
/// name can be shared), and is skipped.
enum TakeoutSidecar {
    struct Document: Decodable {
        struct Time: Decodable {
            let timestamp: Flexible?
        }
        struct Geo: Decodable {
            let latitude: Double?
            let longitude: Double?
        }
        let title: String?
        let photoTakenTime: Time?
        let geoData: Geo?
    }

    /// A number Takeout writes as a string (`"1700000000"`), read as either.
    struct Flexible: Decodable {
        let seconds: Int64?
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) {
                seconds = Int64(s)
            } else {
                seconds = try? c.decode(Int64.self)
            }
        }
    }

    static func read(_ f: SidecarFile, pictureName: String) -> SidecarEvidence {
        var e = SidecarEvidence()
        func skip(_ why: String) -> SidecarEvidence {
            e.diagnostics.append(Diagnostic("sidecar", "\(f.path): \(why); skipped"))
            return e
        }
        guard let doc = try? JSONDecoder().decode(Document.self, from: Data(f.bytes)) else {
            return skip("not a JSON object")
        }
        guard let taken = doc.photoTakenTime else { return skip("no photoTakenTime: not a Google Takeout sidecar") }
        if let title = doc.title, !titleMatches(title, pictureName) {
            return skip("its title is '\(Text.clean(title))', not \(pictureName)")
        }
        if let s = taken.timestamp?.seconds, s > 0, let utc = LocalDateTime(secondsAsIfUTC: s) {
            e.clues.append(DateClue(.sidecarTakeout, .instant(utc: utc, caveat: nil), origin: f.path))
        } else {
            e.diagnostics.append(Diagnostic("sidecar", "\(f.path): photoTakenTime.timestamp is not a time; skipped"))
        }
        if let lat = doc.geoData?.latitude, let lon = doc.geoData?.longitude, lat != 0 || lon != 0,
            (-90...90).contains(lat), (-180...180).contains(lon)
        {
            e.location = MediaAsset.GPS(latitude: lat, longitude: lon)
        }
        return e
    }

    /// The title names this picture: its name, or the original's for an edited copy or a
    /// duplicate; compared in NFC, the extension's case aside (Takeout keeps the uploaded name).
    static func titleMatches(_ title: String, _ pictureName: String) -> Bool {
        let t = Text.canonical(title).lowercased()
        return SidecarNames.acceptedTitles(for: pictureName).contains {
            Text.canonical($0).lowercased() == t
        }
    }
}
