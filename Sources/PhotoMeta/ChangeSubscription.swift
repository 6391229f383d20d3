import Foundation
import PhotoMetaCore
import PhotoMetaSystem
import Synchronization

/// A client of `photometa serve` following the change sets of served folders
/// (`PhotoLibrary.changes()` backed by the service): the service runs the same watchers a
/// client would run in its own process (`DirectoryWatcher`, so the same settling and the same
/// sets), answers once they all watch, then writes one `ServiceChangeLine` a set until the
/// client closes its end or the service stops.
enum ChangeSubscription {
    /// Starts following `request.folders` (served, canonical) for the client on `connection`;
    /// `reply` is sent once every folder is watched. Returns at once.
    static func start(_ request: ServiceRequest, on connection: UnixSocket, reply: ServiceReply, stop: StopFlag) {
        var options = DirectoryWatcher.Options(suggestions: nil)
        options.exclude = request.exclude
        // A folder inside another asked one is watched once, through the outer one.
        let paths = request.folders.map(\.path)
        let outer = Set(paths).filter { p in !paths.contains { $0 != p && PathKey(p).isWithin($0) } }.sorted()
        let watchers = outer.compactMap { try? DirectoryWatcher(folder: $0, options: options) }
        let out = Sender(connection)
        // The client sends nothing after its request: a readable end means it closed.
        let done: @Sendable () -> Bool = {
            stop.isSet || !out.isOpen || !Readiness.wait([connection.descriptorForPolling], timeoutMilliseconds: 0).isEmpty
        }
        // Woken by the service stopping or the client closing, never by a timeout (a
        // subscribed app's service wakes no thread while nothing changes).
        let wakes = [connection.descriptorForPolling] + (stop.wakeDescriptor.map { [$0] } ?? [])
        let ready = DispatchGroup()
        for watcher in watchers {
            ready.enter()
            Thread {
                var arrived = false
                watcher.run(shouldStop: done, wakes: wakes) { event in
                    switch event {
                    case .ready:
                        arrived = true
                        ready.leave()
                    case .changes(let set):
                        guard let data = try? JSONEncoder().encode(ServiceChangeLine(set)) else { return }
                        out.send(String(decoding: data, as: UTF8.self))
                    default: break
                    }
                }
                // A folder gone before it was watched must not keep the client waiting.
                if !arrived { ready.leave() }
            }.start()
        }
        Thread {
            ready.wait()
            guard let data = try? JSONEncoder().encode(reply) else { return }
            out.send(String(decoding: data, as: UTF8.self))
        }.start()
    }
}

/// The subscriber's connection, written by several watchers' threads one line at a time; closed
/// for good at the first failed write (the client is gone, or stuck for 5 s), and then shut
/// down, which wakes every watcher of the subscription (their wake is the connection) and gives
/// a stuck client the end of its stream.
private final class Sender: Sendable {
    private let connection: UnixSocket
    private let open = Mutex(true)

    init(_ connection: UnixSocket) { self.connection = connection }

    var isOpen: Bool { open.withLock { $0 } }

    func send(_ line: String) {
        open.withLock { isOpen in
            guard isOpen else { return }
            do throws(UnixSocket.Failure) {
                try connection.send(line: line, timeoutMilliseconds: 5000)
            } catch {
                isOpen = false
                connection.shutDown()
            }
        }
    }
}
