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
        /// `files` by base-name key (`LivePhotoPairing.stem(of:)`), for the files whose
        /// extension can pair; made when first asked (only a file being parsed asks). Read
        /// without a lock once made: every worker asks for every file of the folder, and a
        /// lock here was a tenth of a warm `inspect -r` (docs/performance.md, "inspect, warm and cold").
        private let pairing = AtomicLazyReference<PairingTable>()
        /// Held only while the table is made, so it is made once (the workers of a large folder
        /// all ask at its first files).
        private let making = Mutex(())
        /// The names of the folder's files that are sidecars (`SidecarNames.isSidecar`), so a
        /// picture's sidecars are looked up without trying to open every candidate name.
        package let sidecarNames: Set<String>

        init(path: String, relative: String, files: [File]) {
            self.path = path
            self.relative = relative
            self.files = files
            var sidecars: Set<String> = []
            for f in files where Folder.mayBeSidecar(f.path) {
                let name = f.path.lastIndex(of: "/").map { String(f.path[f.path.index(after: $0)...]) } ?? f.path
                if SidecarNames.isSidecar(name) { sidecars.insert(name) }
            }
            sidecarNames = sidecars
        }

        /// The other files of the folder that may pair with `path` (same base name).
        package func partners(of path: String) -> [String] {
            guard let stem = LivePhotoPairing.stem(of: path) else { return [] }
            let table = pairing.load() ?? making.withLock { _ in pairing.load() ?? makeTable() }
            return (table.byStem[stem] ?? []).filter { $0 != path }
        }

        private func makeTable() -> PairingTable {
            var byStem: [String: [String]] = [:]
            for f in files {
                if let stem = LivePhotoPairing.stem(of: f.path) { byStem[stem, default: []].append(f.path) }
            }
            return pairing.storeIfNil(PairingTable(byStem: byStem))
        }

        /// A cheap first look at the path's last bytes (`.xmp`, `.json`, any case), so the
        /// name is made only for a likely sidecar.
        private static func mayBeSidecar(_ path: String) -> Bool {
            let tail = path.utf8.suffix(5)
            guard let dot = tail.lastIndex(of: UInt8(ascii: ".")) else { return false }
            let ext = tail[tail.index(after: dot)...].map { $0 | 0x20 }
            return ext == Array("xmp".utf8) || ext == Array("json".utf8)
        }
    }

    /// A folder's files by base-name key, made once and then only read.
    final class PairingTable: Sendable {
        let byStem: [String: [String]]
        init(byStem: [String: [String]]) { self.byStem = byStem }
    }
}
