#if canImport(Glibc)
import Glibc
#endif

/// The I/O edge of `inspect` for one path: stat, open, hand the bytes to the pure `Inspector`,
/// and look beside the file for a Live Photo partner. Never throws: every failure becomes the
/// asset's `error`.
public enum MediaFileInspector {
    ///
    /// `facts`, when the caller already has them (a directory scan), saves a `stat`; `siblings`,
    /// when the caller listed the whole folder, answers "is there an IMG_0001.MOV beside it?"
    /// without a `stat` per candidate name.
    public static func inspect(path: String, pairLivePhotos: Bool = true, facts known: FileFacts? = nil,
                               siblings: Set<String>? = nil) -> MediaAsset {
        let facts: FileFacts
        if let known {
            facts = known
        } else {
            do throws(SystemError) {
                facts = try FileFacts.of(path)
            } catch {
                return failed(path, error.description)
            }
        }
        switch facts.type {
        case .regular: break
        case .directory: return failed(path, "is a directory")
        case .symlink: return failed(path, "symbolic link")  // not reached: FileFacts.of follows links
        case .other(let what): return failed(path, "not a regular file (\(what))")
        }
        let source: FileByteSource
        do throws(FileByteSource.OpenError) {
            source = try FileByteSource(path: path)
        } catch {
            return failed(path, error.description)
        }
        var asset = Inspector.inspect(source, path: path, fileTimes: facts.fileTimes)
        if asset.error == nil, pairLivePhotos {
            pairLivePhoto(&asset) { candidate in
                if let siblings { return siblings.contains(candidate) }
                return exists(candidate)
            }
        }
        return asset
    }

    static func failed(_ path: String, _ reason: String) -> MediaAsset {
        var a = MediaAsset(path: path, format: .unknown)
        a.error = reason
        return a
    }

    /// The rules of `LivePhotoPairing`, applied by looking beside one file: a HEIC/JPEG still
    /// and a `.MOV` with the same base name pair unless both carry content identifiers that
    /// differ. The movie names its still; the still becomes `livePhoto`.
    static func pairLivePhoto(_ asset: inout MediaAsset, exists: (String) -> Bool) {
        let (dir, base, ext) = LivePhotoPairing.split(asset.path)
        let stem = String(dir) + String(base)
        if asset.format.isVideo {
            guard LivePhotoPairing.movieExtensions.contains(ext.lowercased()) else { return }
            for e in ["HEIC", "heic", "JPG", "jpg", "JPEG", "jpeg"] where exists(stem + "." + e) {
                let still = inspectPartner(stem + "." + e)
                if agree(asset.contentIdentifier, still?.contentIdentifier, partner: stem + "." + e, &asset) {
                    asset.livePhotoPair = stem + "." + e
                }
                return
            }
            return
        }
        guard asset.kind == .photo || asset.kind == .screenshot,
              LivePhotoPairing.stillExtensions.contains(ext.lowercased()) else { return }
        for e in ["MOV", "mov", "Mov"] where exists(stem + "." + e) {
            let candidate = stem + "." + e
            let movie = asset.contentIdentifier == nil ? nil : inspectPartner(candidate)
            if agree(asset.contentIdentifier, movie?.contentIdentifier, partner: candidate, &asset) {
                asset.livePhotoPair = candidate
                asset.classify()
            }
            return
        }
    }

    /// Content identifiers must not disagree when both halves carry one.
    static func agree(_ mine: String?, _ theirs: String?, partner: String, _ asset: inout MediaAsset) -> Bool {
        guard let mine, let theirs, mine != theirs else { return true }
        asset.diagnostics.append(Diagnostic("livephoto", "\(partner) has content identifier \(theirs), not \(mine); not paired"))
        return false
    }

    static func inspectPartner(_ path: String) -> MediaAsset? {
        guard let source = try? FileByteSource(path: path) else { return nil }
        return Inspector.inspect(source, path: path)
    }

    static func exists(_ path: String) -> Bool {
        (try? FileFacts.of(path))?.type == .regular
    }
}
