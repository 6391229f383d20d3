import PhotoMetaCore
import PhotoMetaSystem

/// Inspects files by path: stat, open, hand the bytes to the pure `Inspector`, and pair a Live
/// Photo with the files beside it (`LivePhotoPairing`, the rule `suggest` uses too). Never
/// throws: every failure becomes the asset's `error`.
public enum FileInspector {
    /// Everything photometa knows about the file at `path`.
    public static func inspect(path: String) -> MediaAsset {
        inspect(path: path, pairLivePhotos: true)
    }

    /// `facts`, when the caller already has them (a folder walk), saves a `stat`; `folder`, when
    /// the caller listed the file's folder, answers "which files share its base name?" without
    /// a `stat` per candidate name.
    package static func inspect(
        path: String, pairLivePhotos: Bool, facts known: FileFacts? = nil,
        folder: TreeWalker.Folder? = nil
    ) -> MediaAsset {
        let facts: FileFacts
        if let known {
            facts = known
        } else {
            do throws(SystemError) {
                facts = try FileFacts.of(path)
            } catch {
                return .failed(path, .system(error))
            }
        }
        switch facts.type {
        case .regular: break
        case .directory: return .failed(path, .isDirectory)
        case .symlink: return .failed(path, .notRegularFile(what: "a symbolic link"))  // FileFacts.of follows links
        case .other(let what): return .failed(path, .notRegularFile(what: what))
        }
        var asset = inspectBytes(path, fileTimes: facts.fileTimes)
        if asset.error == nil, pairLivePhotos {
            let partners = folder?.partners(of: path) ?? likelyPartners(of: path)
            pair(&asset, partners: partners)
        }
        return asset
    }

    /// The file alone, without pairing.
    static func inspectBytes(_ path: String, fileTimes: FileTimes?) -> MediaAsset {
        let source: FileByteSource
        do throws(FileReadError) {
            source = try FileByteSource(path: path)
        } catch {
            return .failed(path, error)
        }
        return Inspector.inspect(source, path: path, fileTimes: fileTimes)
    }

    /// Without a folder listing: the names beside `path` that may pair with it, in the
    /// spellings cameras and phones write (`.HEIC`/`.heic`, `.JPG`/`.jpg`, `.MOV`/`.mov`...).
    static func likelyPartners(of path: String) -> [String] {
        guard let stem = LivePhotoPairing.stem(of: path) else { return [] }
        let spellings = ["HEIC", "heic", "HEIF", "heif", "JPG", "jpg", "JPEG", "jpeg", "MOV", "mov", "Mov"]
        return spellings.map { stem + "." + $0 }.filter { $0 != path && FileSystem.isRegularFile($0) }
    }

    /// Applies `LivePhotoPairing` to the file and the files sharing its base name.
    static func pair(_ asset: inout MediaAsset, partners: [String]) {
        guard !partners.isEmpty else { return }
        var members = [LivePhotoPairing.Member(path: asset.path, kind: asset.kind, contentIdentifier: asset.contentIdentifier)]
        for p in partners {
            let other = inspectBytes(p, fileTimes: nil)
            guard other.error == nil else { continue }
            members.append(LivePhotoPairing.Member(path: p, kind: other.kind, contentIdentifier: other.contentIdentifier))
        }
        for (still, movie) in LivePhotoPairing.pairs(members) where still == 0 || movie == 0 {
            asset.livePhotoPair = members[still == 0 ? movie : still].path
            if still == 0 { asset.classify() }
            return
        }
        // Not paired: say so when an identifier is what kept a same-named partner away.
        if let mine = asset.contentIdentifier {
            for m in members.dropFirst() {
                if let theirs = m.contentIdentifier, theirs != mine, (m.kind == .video) != (asset.kind == .video) {
                    asset.diagnostics.append(
                        Diagnostic("livephoto", "\(m.path) has content identifier \(theirs), not \(mine); not paired"))
                }
            }
        }
    }
}
