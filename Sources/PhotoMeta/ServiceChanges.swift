import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// The client's end of a `changes` subscription (`ChangeSubscription`): each line of canonical
/// paths becomes a `ChangeSet` with the paths as the caller wrote its folders and each file
/// inspected here. The stream ends when the service stops or goes; letting go of it closes
/// the connection, which ends the service's watchers.
enum ServiceChanges {
    static func stream(_ connection: UnixSocket, folders: [(canonical: String, display: String)]) -> AsyncStream<ChangeSet> {
        let stop = StopFlag()
        return AsyncStream { continuation in
            continuation.onTermination = { _ in stop.set() }
            Thread {
                while !stop.isSet {
                    let line: String?
                    do throws(UnixSocket.Failure) {
                        line = try connection.receiveLine(timeoutMilliseconds: 100, maxBytes: 64 << 20)
                    } catch .timedOut {
                        continue
                    } catch {
                        break  // closed: the service stopped
                    }
                    guard let line else { break }
                    guard let sent = try? JSONDecoder().decode(ServiceChangeLine.self, from: Data(line.utf8)) else { continue }
                    continuation.yield(changeSet(sent, folders))
                }
                continuation.finish()
            }.start()
        }
    }

    /// The set as a watcher here reports it.
    static func changeSet(_ sent: ServiceChangeLine, _ folders: [(canonical: String, display: String)]) -> ChangeSet {
        func shown(_ canonical: String) -> String {
            for f in folders where PathKey(canonical).isWithin(f.canonical) {
                let display = f.display.count > 1 && f.display.hasSuffix("/") ? String(f.display.dropLast()) : f.display
                return display + canonical.dropFirst(f.canonical.count)
            }
            return canonical
        }
        let pairing = PairingFolders()  // a folder's pairable files read once a set, not once a movie
        func file(_ canonical: String) -> ChangeSet.File {
            let path = shown(canonical)
            return ChangeSet.File(path: path, asset: FileInspector.inspect(path: path, pairLivePhotos: true, pairing: pairing))
        }
        var set = ChangeSet()
        set.inserted = sent.inserted.map(file)
        set.removed = sent.removed.map(shown)
        set.changed = sent.changed.map(file)
        set.moved = sent.moved.map { ChangeSet.Move(from: shown($0.from), to: file($0.to)) }
        return set
    }
}
