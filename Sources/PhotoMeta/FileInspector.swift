import PhotoMetaCore
import PhotoMetaSystem
import Synchronization

/// Inspects files by path: stat, open, hand the bytes to the pure `Inspector`, and pair a Live
/// Photo with the files beside it (`LivePhotoPairing`, the rule `suggest` uses too). Never
/// throws: every failure becomes the asset's `error`.
public enum FileInspector {
    /// Everything photometa knows about the file at `path`.
    public static func inspect(path: String) -> MediaAsset {
        inspect(path: path, pairLivePhotos: true)
    }

    /// `facts`, when the caller already has them (a folder walk), saves a `stat`; `folder`, when
    /// the caller listed the file's folder, answers "which files share its base name?" and
    /// "which sidecars are there?" without a `stat` per candidate name. `sidecars` false
    /// (`--no-sidecars`) leaves XMP sidecars and Takeout JSON unread. `opened`, when the caller
    /// already opened the file (`InspectionRunner` opens a run of files at once to keep reads
    /// in flight), is read instead of opening it again.
    package static func inspect(
        path: String, pairLivePhotos: Bool, facts known: FileFacts? = nil,
        folder: TreeWalker.Folder? = nil, pairing: PairingFolders = PairingFolders(), sidecars: Bool = true,
        opened: FileByteSource? = nil
    ) -> MediaAsset {
        let facts: FileFacts
        if let known {
            facts = known
        } else if let opened {
            facts = opened.facts
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
        var asset = inspectBytes(path, fileTimes: facts.fileTimes, sidecars: sidecars, folder: folder, opened: opened)
        if asset.error == nil, pairLivePhotos {
            // Each partner with its file's times, as `suggest` dates every file of the folder.
            let partners =
                folder.map { $0.partners(of: path).map { ($0.path, ($0.facts ?? (try? FileFacts.of($0.path)))?.fileTimes) } }
                ?? likelyPartners(of: path).map { ($0, (try? FileFacts.of($0))?.fileTimes) }
            pair(&asset, partners: partners, folder: folder) {
                pairing.members(of: String(LivePhotoPairing.split(path).dir), names: folder.map { $0.files.map(\.path) })
            }
        }
        return asset
    }

    /// The file alone, without pairing; with its sidecars when `sidecars` is true.
    static func inspectBytes(
        _ path: String, fileTimes: FileTimes?, sidecars: Bool = false, folder: TreeWalker.Folder? = nil,
        opened: FileByteSource? = nil
    ) -> MediaAsset {
        let source: FileByteSource
        if let opened {
            source = opened
        } else {
            do throws(FileReadError) {
                source = try FileByteSource(path: path)
            } catch {
                return .failed(path, error)
            }
        }
        let latest = latestNameYear()
        guard sidecars else {
            return Inspector.inspect(source, path: path, fileTimes: fileTimes, sidecars: [], latestNameYear: latest)
        }
        let (files, refused) = SidecarReader.read(for: path, folder: folder)
        var asset = Inspector.inspect(source, path: path, fileTimes: fileTimes, sidecars: files, latestNameYear: latest)
        if asset.error == nil { asset.diagnostics = refused + asset.diagnostics }
        return asset
    }

    /// Next year (UTC), from the clock: names dated later are refused ("dates before 1990 or
    /// after next year", docs/dates.md). Read per file: `serve` runs across new year.
    static func latestNameYear() -> Int? {
        LocalDateTime(secondsAsIfUTC: Int64(SystemClock().now()), nanosecond: 0, fractionDigits: 0).map { $0.year + 1 }
    }

    /// Without a folder listing: the names beside `path` that may pair with it, in the
    /// spellings cameras and phones write (`.HEIC`/`.heic`, `.JPG`/`.jpg`, `.MOV`/`.mov`...).
    /// A name that is not ASCII may be spelt composed or decomposed on the disk (a copy through
    /// macOS decomposes it): its folder is listed, and the names whose key is the same string
    /// (Swift compares in canonical equivalence) are its partners.
    static func likelyPartners(of path: String) -> [String] {
        guard let stem = LivePhotoPairing.stem(of: path) else { return [] }
        if !Text.isASCII(stem) {
            let dir = String(LivePhotoPairing.split(path).dir)
            let names = FileSystem.entryNames(dir.isEmpty ? "." : dir) ?? []
            return names.map { dir + $0 }.filter {
                $0 != path && LivePhotoPairing.stem(of: $0) == stem && FileSystem.isRegularFile($0)
            }
        }
        return LivePhotoPairing.extensionSpellings.map { stem + "." + $0 }.filter { $0 != path && FileSystem.isRegularFile($0) }
    }

    /// Applies `LivePhotoPairing` to the file and the files sharing its base name, and, when the
    /// rule needs them (`LivePhotoPairing.neededIdentifiers`), the folder's files carrying the
    /// same content identifiers, so the answer is the one `suggest` gives for the whole folder.
    static func pair(
        _ asset: inout MediaAsset, partners: [(path: String, fileTimes: FileTimes?)], folder: TreeWalker.Folder? = nil,
        folderFiles: () -> [LivePhotoPairing.Member] = { [] }
    ) {
        // Alone and without a content identifier, nothing can pair with it, nor be told why not.
        guard !partners.isEmpty || asset.contentIdentifier != nil else { return }
        var members = [asset.pairingMember]
        for (p, times) in partners {
            // Read as `suggest` reads every file of the folder, with its file's times and its
            // sidecars: a half dated only by them pairs (or not) the same in both commands.
            let other = inspectBytes(p, fileTimes: times, sidecars: true, folder: folder)
            guard other.error == nil else { continue }
            members.append(other.pairingMember)
        }
        let needed = LivePhotoPairing.neededIdentifiers(for: 0, in: members)
        if !needed.isEmpty {
            let known = Set(members.map(\.path))
            members += folderFiles().filter { m in
                !known.contains(m.path) && m.contentIdentifier.map(needed.contains) == true
            }
        }
        for p in LivePhotoPairing.pairs(members) where p.still == 0 || p.movie == 0 {
            let partner = members[p.still == 0 ? p.movie : p.still]
            LivePhotoPairing.link(
                &asset, partner: partner.path, captured: partner.captured, evidence: p.evidence, isStill: p.still == 0)
            return
        }
        // Not paired: say so when an identifier is what kept a same-named partner away.
        if let mine = asset.contentIdentifier {
            for m in members.dropFirst() where LivePhotoPairing.stem(of: m.path) == LivePhotoPairing.stem(of: asset.path) {
                if let theirs = m.contentIdentifier, theirs != mine, (m.kind == .video) != (asset.kind == .video) {
                    asset.diagnostics.append(
                        Diagnostic("livephoto", "\(m.path) has content identifier \(theirs), not \(mine); not paired"))
                }
            }
        }
    }
}

/// The files of folders that may pair (by extension), each inspected once however many files of
/// the folder ask: `inspect` needs them only when a Live Photo's halves may carry different
/// names (`LivePhotoPairing.neededIdentifiers`). Shared by the workers of one run.
package final class PairingFolders: Sendable {
    private let folders = Mutex<[String: [LivePhotoPairing.Member]]>([:])

    package init() {}

    /// The members of the folder `dir` ("" for the current folder, else ending in "/"), listed
    /// from `names` when given, else from the folder itself.
    package func members(of dir: String, names: [String]? = nil) -> [LivePhotoPairing.Member] {
        if let known = folders.withLock({ $0[dir] }) { return known }
        let listed = names ?? (FileSystem.entryNames(dir.isEmpty ? "." : dir) ?? []).map { dir + $0 }
        var found: [LivePhotoPairing.Member] = []
        for path in listed where LivePhotoPairing.canPair(path) {
            let a = FileInspector.inspectBytes(path, fileTimes: nil)
            if a.error == nil { found.append(a.pairingMember) }
        }
        folders.withLock { $0[dir] = found }
        return found
    }
}
