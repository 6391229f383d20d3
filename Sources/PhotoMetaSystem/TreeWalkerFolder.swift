import PhotoMetaCore
import Synchronization

extension TreeWalker {
    /// A folder and all its regular files; shared by the files' items so that a still finds
    /// its Live Photo partner among them without a `stat` per candidate name.
    package final class Folder: Sendable {
        package let path: String
        /// Below the starting folder ("" for the starting folder itself).
        package let relative: String
        package let files: [File]
        /// The partners of `files` by path (`makeTable`), for the files whose extension can
        /// pair and share a base name; made when first asked (only a file being parsed asks). Read
        /// without a lock once made: every worker asks for every file of the folder, and a
        /// lock here was a tenth of a warm `inspect -r` (docs/performance.md, "inspect, warm and cold").
        private let pairing = AtomicLazyReference<PairingTable>()
        /// Held only while the table is made, so it is made once (the workers of a large folder
        /// all ask at its first files).
        private let making = Mutex(())
        /// The names of the folder's files that are sidecars (`SidecarNames.isSidecar`), so a
        /// picture's sidecars are looked up without trying to open every candidate name.
        package let sidecarNames: Set<String>

        package init(path: String, relative: String, files: [File]) {
            self.path = path
            self.relative = relative
            self.files = files
            var sidecars: Set<String> = []
            for f in files where Folder.mayBeSidecar(f.path) {
                let slash = f.path.lastIndex(ofASCII: UInt8(ascii: "/"))
                let name = slash.map { String(f.path[f.path.utf8.index(after: $0)...]) } ?? f.path
                if SidecarNames.isSidecar(name) { sidecars.insert(name) }
            }
            sidecarNames = sidecars
        }

        /// The other files of the folder that may pair with `path`, one of `files` (same base
        /// name), with what the walk's `statx` said of them (nothing, for a walk that did not
        /// examine its files: `TreeWalker.examinesListedFiles`).
        package func partners(of path: String) -> [File] {
            let table = pairing.load() ?? making.withLock { _ in pairing.load() ?? makeTable() }
            // Most folders have no two files of one base name: no key is made or hashed.
            guard !table.partnersByPath.isEmpty else { return [] }
            return table.partnersByPath[path] ?? []
        }

        /// Every file's partners, made once: the files that share a base-name key
        /// (`LivePhotoPairing.stem(of:)`), each mapped to the others.
        private func makeTable() -> PairingTable {
            // First the key's hash of every file, read off the path in place (`stemHash`): equal
            // keys hash equal, so only the files whose hash is met twice can share a key, and
            // only they have their key made as a string and compared. (Making every file's key
            // was 4 k instructions a file of a folder of camera JPEGs, none of which pair.)
            let hashes = files.map { LivePhotoPairing.stemHash($0.path) }
            var seen: [UInt64: Int] = [:]
            seen.reserveCapacity(files.count)
            for h in hashes { seen[h, default: 0] += 1 }
            // Each stem once, with the place of its first file; a group only for a stem seen again.
            var first: [String: Int] = [:]
            var groups: [Int: [File]] = [:]
            for (i, f) in files.enumerated() where seen[hashes[i], default: 0] > 1 {
                guard let stem = LivePhotoPairing.stem(of: f.path) else { continue }
                if let j = first[stem] {
                    groups[j, default: [files[j]]].append(f)
                } else {
                    first[stem] = i
                }
            }
            var partnersByPath: [String: [File]] = [:]
            for group in groups.values {
                for f in group { partnersByPath[f.path] = group.filter { $0.path != f.path } }
            }
            return pairing.storeIfNil(PairingTable(partnersByPath: partnersByPath))
        }

        /// A cheap first look at the path's last bytes (`.xmp`, `.json`, any case), so the
        /// name is made only for a likely sidecar.
        private static func mayBeSidecar(_ path: String) -> Bool {
            // The last bytes, lowercased, against "xmp" and "json" (no arrays made per file).
            var tail: UInt64 = 0  // up to the last 5 bytes, the last in the low byte
            var n = 0
            for b in path.utf8.reversed() {
                if n == 5 { break }
                tail |= UInt64(b >= 0x41 && b <= 0x5A ? b | 0x20 : b) << (8 * UInt64(n))
                n += 1
            }
            let xmp: UInt64 = 0x2E_78_6D_70  // ".xmp"
            let json: UInt64 = 0x2E_6A_73_6F_6E  // ".json"
            return (n >= 4 && tail & 0xFFFF_FFFF == xmp) || (n >= 5 && tail & 0xFF_FFFF_FFFF == json)
        }
    }

    /// A folder's files that have partners, each with them; made once and then only read.
    final class PairingTable: Sendable {
        let partnersByPath: [String: [File]]
        init(partnersByPath: [String: [File]]) { self.partnersByPath = partnersByPath }
    }
}
