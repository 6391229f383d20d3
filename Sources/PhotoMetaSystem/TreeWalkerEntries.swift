import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

extension TreeWalker {
    /// Where a listed folder lies: its path, its path below the starting folder, and the
    /// starting folder (for links under `.library`).
    struct Place {
        let dir: String
        let relative: String
        let root: String
        private let prefix: String

        init(dir: String, relative: String, root: String) {
            self.dir = dir
            self.relative = relative
            self.root = root
            prefix = dir.hasSuffix("/") ? dir : dir + "/"
        }

        /// Made at its size: `prefix + name` grows a copy of the prefix's storage to twice its
        /// capacity (144 bytes a path of 63, where 96 do; 2 MB in a folder of 50,000 files).
        func path(_ name: String) -> String {
            var path = String()
            path.reserveCapacity(prefix.utf8.count + name.utf8.count)
            path += prefix
            path += name
            return path
        }
        func below(_ name: String) -> String { relative.isEmpty ? name : relative + "/" + name }
    }

    /// A listed sub-folder: where its files' run ends in the folder's files, its name and paths.
    typealias Subfolder = (position: Int, name: String, path: String, relative: String)

    /// What one examined name is.
    private enum Examined {
        case file(File)
        case folder
        case skipped(SkipReason)
    }

    /// Files handed on at once when streaming (`streamsFiles`).
    static let runLength = 256

    /// The name of a listed entry to examine; nil for a hidden or excluded one, and for one
    /// the listing already says is a FIFO, socket or device (reported).
    private func admitted(
        _ e: DirectoryHandle.Listing.Entry, of listing: DirectoryHandle.Listing, _ place: Place,
        visit: (Event) -> Void
    ) -> String? {
        guard !listing.isHidden(e) else { return nil }
        let name = listing.name(e)
        if !exclude.isEmpty, exclude.contains(where: { $0.matches(place.below(name)) }) { return nil }
        if let what = e.type.special {
            visit(.skipped(path: place.path(name), relative: place.below(name), reason: .special(what)))
            return nil
        }
        return name
    }

    /// The listed names to examine, in order (see `admitted`), each with whether the listing
    /// says it is a regular file.
    func admitted(_ listing: DirectoryHandle.Listing, _ place: Place, visit: (Event) -> Void) -> [Admitted] {
        // Names first, paths made only for what is kept: a folder of 50,000 files (a burst)
        // holds one string per path, not three.
        var names: [Admitted] = []
        names.reserveCapacity(listing.entries.count)
        for e in listing.entries {
            if let name = admitted(e, of: listing, place, visit: visit) { names.append((name, e.type == .regular)) }
        }
        return names
    }

    /// A listed name to examine, and whether the listing says it is a regular file.
    typealias Admitted = (name: String, listedRegular: Bool)

    /// The folder's files and sub-folders and what they are, before any file is handed on, so
    /// every file's item can carry its siblings; entries that are not handed on are reported.
    func examine(_ admitted: [Admitted], in handle: DirectoryHandle, _ place: Place, visit: (Event) -> Void)
        -> ([File], [Subfolder])
    {
        // A name the listing says is a regular file is taken at its word when the walk is not
        // to examine files (`examinesListedFiles`); every other name is asked about.
        let unasked = { (a: Admitted) in !examinesListedFiles && a.listedRegular }
        let answers = stat(admitted.filter { !unasked($0) }.map(\.name), in: handle.fd)
        var next = answers.startIndex
        var files: [File] = []
        files.reserveCapacity(admitted.count)
        var subfolders: [Subfolder] = []
        for a in admitted {
            let what: Examined
            if unasked(a) {
                what = .file(File(path: place.path(a.name), relative: place.below(a.name), facts: nil))
            } else {
                what = classify(a.name, answers[next], in: handle, place)
                next += 1
            }
            switch what {
            case .file(let f): files.append(f)
            case .folder: subfolders.append((files.count, a.name, place.path(a.name), place.below(a.name)))
            case .skipped(let reason):
                visit(.skipped(path: place.path(a.name), relative: place.below(a.name), reason: reason))
            }
        }
        return (files, subfolders)
    }

    /// The folder's entries examined one at a time and handed on in runs of `runLength`
    /// files (`streamsFiles`), each sub-folder in its place (`subfolder`), then `folderDone`.
    func stream(
        _ listing: DirectoryHandle.Listing, in handle: DirectoryHandle, _ place: Place, visit: (Event) -> Void,
        subfolder: (Subfolder) -> Void
    ) {
        let folder = Folder(path: place.dir, relative: place.relative, files: [])
        var run: [File] = []
        run.reserveCapacity(min(listing.entries.count, TreeWalker.runLength))
        for e in listing.entries {
            guard let name = admitted(e, of: listing, place, visit: visit) else { continue }
            switch classify(name, stat(name, in: handle.fd), in: handle, place) {
            case .file(let f):
                run.append(f)
                if run.count >= TreeWalker.runLength {
                    visit(.files(folder, run[...]))
                    run.removeAll(keepingCapacity: true)
                }
            case .folder:
                if !run.isEmpty { visit(.files(folder, run[...])) }
                run.removeAll(keepingCapacity: true)
                subfolder((0, name, place.path(name), place.below(name)))
            case .skipped(let reason):
                visit(.skipped(path: place.path(name), relative: place.below(name), reason: reason))
            }
        }
        if !run.isEmpty { visit(.files(folder, run[...])) }
        visit(.folderDone(folder))
    }

    /// What `statx` (links not followed) said the name is, under the policy.
    private func classify(
        _ name: String, _ result: Result<FileFacts, SystemError>, in handle: DirectoryHandle,
        _ place: Place
    ) -> Examined {
        let f: FileFacts
        switch result {
        case .success(let facts): f = facts
        case .failure(let error): return .skipped(.cannotExamine(error))
        }
        switch f.type {
        case .regular:
            return .file(File(path: place.path(name), relative: place.below(name), facts: f))
        case .directory:
            return .folder
        case .symlink:
            let path = place.path(name)
            switch link(name, in: handle, path: path, root: place.root) {
            case .success(let target):
                return .file(File(path: path, relative: place.below(name), facts: target.facts, linkTarget: target.canonical))
            case .failure(let reason): return .skipped(reason)
            }
        case .other(let what):
            return .skipped(.special(what))
        }
    }

    private func stat(_ name: String, in fd: Int32) -> Result<FileFacts, SystemError> {
        do throws(SystemError) {
            return .success(try FileFacts.of(name, in: fd, followLinks: false))
        } catch {
            return .failure(error)
        }
    }

    /// `statx` of each name in the folder `fd`, links not followed; on both cores when the
    /// walker is asked to (`parallelStat`) and the folder is large enough to repay the hand-off:
    /// a scan that finds its files unchanged is mostly these calls.
    private func stat(_ names: [String], in fd: Int32) -> [Result<FileFacts, SystemError>] {
        guard parallelStat, names.count >= 64 else { return names.map { stat($0, in: fd) } }
        // Two runs of consecutive names, not one name at a time: one hand-off per half, each
        // half written in place (no second copy of a large folder's results).
        let half = (names.count + 1) / 2
        let walker = self
        return [Result<FileFacts, SystemError>](unsafeUninitializedCapacity: names.count) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            let out = SendableBuffer(base: base)
            _ = ParallelMap.run(2) { part in
                for i in (part == 0 ? 0 : half)..<(part == 0 ? half : names.count) {
                    (out.base + i).initialize(to: walker.stat(names[i], in: fd))
                }
            }
            count = names.count
        }
    }

    /// Where a symbolic link leads, under the policy.
    private func link(_ name: String, in handle: DirectoryHandle, path: String, root: String)
        -> Result<(facts: FileFacts, canonical: String?), SkipReason>
    {
        let target: FileFacts
        do throws(SystemError) {
            target = try handle.facts(name, followLinks: true)
        } catch {
            // ELOOP: a link to itself, or a ring of links; anything else, a target that is not there.
            return .failure(error.errno == ELOOP ? .linkLoop : .danglingLink)
        }
        switch target.type {
        case .directory: return .failure(.linkToFolder)
        case .other, .symlink: return .failure(.linkToSpecial)
        case .regular: break
        }
        if case .library = policy {
            guard let resolved = try? FileSystem.canonicalPath(path), resolved.hasPrefix(root == "/" ? "/" : root + "/")
            else { return .failure(.linkOutOfFolder) }
            return .success((target, resolved))
        }
        return .success((target, nil))
    }
}

/// The start of a buffer whose disjoint parts threads fill (`TreeWalker.stat`).
private struct SendableBuffer<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
}
