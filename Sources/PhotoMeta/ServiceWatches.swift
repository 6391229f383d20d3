import PhotoMetaCore
import PhotoMetaSystem

/// The service's inotify watches: one source per served folder, every folder watched before it
/// is listed, released when dropped; a folder that cannot be watched (the kernel's limit) stops
/// the answers until it has left the library (docs/service.md).
extension LibraryService {
    /// One inotify source per folder, watching the folder itself before anything is listed.
    func startWatching() throws(Failure) {
        for root in folders {
            do throws(InotifySource.Failure) {
                let source = try InotifySource(root: root, maximumWatches: maximumWatches)
                try source.watch("")
                watches.append((root, source))
            } catch {
                watchFailure.set("\(error)", folder: root)
            }
        }
    }

    /// What the walker tells as it enters a folder: watch it before it is listed.
    func watchEntering() -> @Sendable (String, String) -> Void {
        let sources = SourcesBox(Dictionary(watches.map { (PathKey($0.root), $0.source) }, uniquingKeysWith: { a, _ in a }))
        let failure = watchFailure
        return { path, relative in
            guard !relative.isEmpty else { return }
            // The root is what precedes "/relative" ("/" itself when that leaves nothing).
            let cut = String(path.utf8.dropLast(relative.utf8.count + 1)) ?? ""
            let root = cut.isEmpty ? "/" : cut
            guard let source = sources.value[PathKey(root)] else { return }
            do throws(InotifySource.Failure) {
                // Watched anew even under a known name: it may be another folder now.
                try source.watch(relative, again: true)
            } catch {
                failure.set("\(error)", folder: path)
            }
        }
    }

    /// A folder that could not be watched is said once, when met; it leaving the library
    /// (deleted, moved out) is what lets the service answer again, and that is said too.
    func tellWatchFailures() {
        guard ready else { return }
        for why in watchFailure.takeNew() { note?("\(why); clients will scan until it is gone") }
        if watchFailure.forget(where: { !library.holds($0) }) { note?("every folder is watched again; answering") }
    }

    /// What the library calls for each folder it drops: release the folder's watch (a folder
    /// moved out of the tree would keep it, and wake the service for nothing).
    func releaseWatch() -> (String) -> Void {
        let sources = watches
        return { path in
            guard let (root, source) = sources.first(where: { PathKey(path).isWithin($0.0) && PathKey(path) != PathKey($0.0) })
            else { return }
            source.forget(
                String(decoding: path.utf8.dropFirst(root == "/" ? 1 : root.utf8.count + 1), as: UTF8.self), release: true)
        }
    }
}

/// The inotify sources, used only from the service's thread (hence `@unchecked`).
private final class SourcesBox: @unchecked Sendable {
    let value: [PathKey: InotifySource]
    init(_ value: [PathKey: InotifySource]) { self.value = value }
}
