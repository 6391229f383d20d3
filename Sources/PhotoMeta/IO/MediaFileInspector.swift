#if canImport(Glibc)
import Glibc
#endif

/// The I/O edge of `inspect` for one path: stat, open, hand the bytes to the pure `Inspector`,
/// and look beside the file for a Live Photo partner. Never throws: every failure becomes the
/// asset's `error`.
public enum MediaFileInspector {
    static let videoExtensions = ["MOV", "mov", "Mov"]
    static let stillExtensions = ["HEIC", "heic", "JPG", "jpg", "JPEG", "jpeg"]

    /// `pairLivePhotos: false` skips the look beside the file (callers that see the whole folder
    /// pair with `LivePhotoPairing` instead).
    public static func inspect(path: String, pairLivePhotos: Bool = true) -> MediaAsset {
        let facts: FileFacts
        do throws(SystemError) {
            facts = try FileFacts.of(path)
        } catch {
            return failed(path, error.description)
        }
        switch facts.type {
        case .regular: break
        case .directory: return failed(path, "is a directory")
        case .symlink: return failed(path, "dangling symbolic link")
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
            pairLivePhoto(&asset)
        }
        return asset
    }

    static func failed(_ path: String, _ reason: String) -> MediaAsset {
        var a = MediaAsset(path: path, format: .unknown)
        a.error = reason
        return a
    }

    /// A still whose `.MOV` sits beside it under the same base name is a Live Photo; when both
    /// carry a content identifier they must agree. A movie beside its still names the still.
    static func pairLivePhoto(_ asset: inout MediaAsset) {
        let (dir, base, ext) = split(asset.path)
        if asset.format.isVideo {
            guard videoExtensions.contains(ext) else { return }
            for e in stillExtensions where exists(dir + base + "." + e) {
                asset.livePhotoPair = dir + base + "." + e
                return
            }
            return
        }
        guard asset.kind.isStill, asset.format != .gif else { return }
        for e in videoExtensions {
            let candidate = dir + base + "." + e
            guard exists(candidate) else { continue }
            if let mine = asset.contentIdentifier {
                let partner = inspectMovie(candidate)
                if let theirs = partner?.contentIdentifier, theirs != mine {
                    asset.diagnostics.append(Diagnostic("livephoto",
                        "\(candidate) has content identifier \(theirs), not \(mine); not paired"))
                    return
                }
            }
            asset.livePhotoPair = candidate
            asset.classify()
            return
        }
    }

    static func inspectMovie(_ path: String) -> MediaAsset? {
        guard let source = try? FileByteSource(path: path) else { return nil }
        return Inspector.inspect(source, path: path)
    }

    static func exists(_ path: String) -> Bool {
        (try? FileFacts.of(path))?.type == .regular
    }

    /// ("dir/", "IMG_0001", "HEIC") for "dir/IMG_0001.HEIC".
    static func split(_ path: String) -> (String, String, String) {
        var dir = ""
        var name = Substring(path)
        if let slash = path.lastIndex(of: "/") {
            dir = String(path[...slash])
            name = path[path.index(after: slash)...]
        }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (dir, String(name), "") }
        return (dir, String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}
