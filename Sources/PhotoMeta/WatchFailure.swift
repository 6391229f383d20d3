import Foundation
import PhotoMetaCore

/// Why a watch could not be added, shared with the walker's callback. A watch keeps the first
/// reason (it then polls); the service keeps one per folder, so that it says each once and
/// answers again once every folder it could not watch has left the library (a tree past the
/// watch limit deleted).
final class WatchFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    /// Folder → why it could not be watched, in the order they failed; `told`: how many of
    /// them were handed out by `takeNew`.
    private var folders: [(folder: PathKey, why: String)] = []
    private var told = 0

    var reason: String? {
        lock.lock()
        defer { lock.unlock() }
        return value ?? folders.first?.why
    }

    func set(_ why: String) {
        lock.lock()
        if value == nil { value = why }
        lock.unlock()
    }

    /// `folder` could not be watched because of `why`.
    func set(_ why: String, folder: String) {
        lock.lock()
        let key = PathKey(folder)
        if !folders.contains(where: { $0.folder == key }) { folders.append((key, why)) }
        lock.unlock()
    }

    /// The folders' reasons not yet taken, in the order they failed.
    func takeNew() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let new = folders[min(told, folders.count)...].map(\.why)
        told = folders.count
        return new
    }

    /// Forgets the folders `gone` says are no longer followed; true when that leaves none (and
    /// there was one).
    func forget(where gone: (String) -> Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let before = folders.count
        let kept = folders.enumerated().filter { !gone($0.element.folder.path) }
        told = kept.filter { $0.offset < told }.count
        folders = kept.map(\.element)
        return before > 0 && folders.isEmpty && value == nil
    }
}
