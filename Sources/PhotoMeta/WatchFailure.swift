import Foundation

/// The first reason a watch could not be added, shared with the walker's callback.
final class WatchFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    var reason: String? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set(_ why: String) {
        lock.lock()
        if value == nil { value = why }
        lock.unlock()
    }
}
