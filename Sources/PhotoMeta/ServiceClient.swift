import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// How a client finds and asks a running `photometa serve` (docs/service.md): the runtime
/// folder is checked (the user's own, private, not a link), each registration there whose
/// lock a live process holds and whose folders cover the request is asked over its socket
/// (the socket must be this user's, and so must the peer), and an answer must come within
/// 100 ms. Anything else is "no service": the caller scans, and says why when asked.
package enum ServiceClient {
    /// How long a service may be silent before the client scans instead.
    package static let timeoutMilliseconds = 100

    /// The answer of a live service serving every folder of `request` (with its exclude), or
    /// why there is none.
    package static func ask(_ request: ServiceRequest, environment: [String: String]) -> Result<ServiceReply, ServiceAbsence> {
        let runtime: RuntimeFolder
        switch RuntimeFolder.locate(environment: environment) {
        case .failure(let why): return .failure(.noRuntimeFolder("\(why)"))
        case .success(let r): runtime = r
        }
        do throws(RuntimeFolder.Problem) {
            try runtime.check()
        } catch {
            if case .system(_, let e) = error, e.errno == ENOENT { return .failure(.none) }
            return .failure(.noRuntimeFolder("\(error)"))
        }
        var last = ServiceAbsence.none
        for registration in registrations(in: runtime) where covers(registration, request) {
            switch ask(registration, request) {
            case .success(let reply): return .success(reply)
            case .failure(let why): last = why
            }
        }
        return .failure(last)
    }

    /// The registrations in the runtime folder, as written (not yet trusted).
    static func registrations(in runtime: RuntimeFolder) -> [LibraryService.Registration] {
        let names = FileSystem.entryNames(runtime.path) ?? []
        return names.filter { $0.hasPrefix("serve-") && $0.hasSuffix(".json") }.compactMap { name in
            guard let bytes = FileSystem.contents(runtime.file(name), limit: 64 * 1024) else { return nil }
            return try? JSONDecoder().decode(LibraryService.Registration.self, from: Data(bytes))
        }
    }

    /// The service serves every folder of the request, with the request's excludes: each is
    /// a served folder, or lies below one when neither side excludes anything (patterns are
    /// relative to the folder they were given with, so a service's patterns say nothing sure
    /// about a walk of its sub-folder). `status` asks about the folders alone, and answers as
    /// for a `suggest` of them without `--exclude`: a sub-folder of a service without
    /// excludes is answered by it.
    static func covers(_ r: LibraryService.Registration, _ request: ServiceRequest) -> Bool {
        // Folders compared by their bytes: `café` in one code point and in two are two folders.
        // `status` asks as a `suggest` without `--exclude` would (its request has none).
        r.exclude == request.exclude
            && request.folders.allSatisfy { f in
                r.folders.contains { PathKey($0) == PathKey(f.path) }
                    || (r.exclude.isEmpty && r.folders.contains { PathKey(f.path).isWithin($0) })
            }
    }

    /// One service asked, after its lock proved it alive.
    static func ask(_ r: LibraryService.Registration, _ request: ServiceRequest) -> Result<ServiceReply, ServiceAbsence> {
        guard case .alive = ServiceLock.probe(r.lock) else { return .failure(.dead(pid: r.pid)) }
        // One deadline for the whole exchange: 100 ms from the first step to the answer.
        let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
        func left() -> Int {
            let d = deadline - ContinuousClock.now
            return max(1, Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000))
        }
        do throws(UnixSocket.Failure) {
            let connection = try UnixSocket.connect(path: r.socket, timeoutMilliseconds: left())
            guard let line = try? JSONEncoder().encode(request) else { return .failure(.silent(pid: r.pid)) }
            try connection.send(line: String(decoding: line, as: UTF8.self), timeoutMilliseconds: left())
            guard let answer = try connection.receiveLine(timeoutMilliseconds: left(), maxBytes: 256 << 20),
                let reply = try? JSONDecoder().decode(ServiceReply.self, from: Data(answer.utf8))
            else { return .failure(.silent(pid: r.pid)) }
            if let why = reply.refused { return .failure(.refused(pid: r.pid, why)) }
            return .success(reply)
        } catch {
            // A step that ran out of what was left of the exchange's time: the service was
            // silent for the whole 100 ms, whatever the step's own remainder said.
            if case .timedOut = error { return .failure(.silent(pid: r.pid)) }
            return .failure(.unreachable(pid: r.pid, "\(error)"))
        }
    }
}

extension ServiceClient {
    /// How long a service may take to watch the folders of a `changes` request (its first
    /// look at a large library) before the client watches them itself.
    static let subscribeTimeoutMilliseconds = 30_000

    /// Follows the change sets of `request`'s folders through a live service: the connection
    /// once the service watches them (its reply read), ready for `ServiceChangeLine`s.
    static func subscribe(_ request: ServiceRequest, environment: [String: String]) -> (UnixSocket, Int32)? {
        guard case .success(let runtime) = RuntimeFolder.locate(environment: environment), (try? runtime.check()) != nil
        else { return nil }
        for r in registrations(in: runtime) where covers(r, request) {
            guard case .alive = ServiceLock.probe(r.lock) else { continue }
            do throws(UnixSocket.Failure) {
                let connection = try UnixSocket.connect(path: r.socket, timeoutMilliseconds: timeoutMilliseconds)
                guard let line = try? JSONEncoder().encode(request) else { return nil }
                try connection.send(line: String(decoding: line, as: UTF8.self), timeoutMilliseconds: timeoutMilliseconds)
                guard
                    let answer = try connection.receiveLine(timeoutMilliseconds: subscribeTimeoutMilliseconds, maxBytes: 1 << 20),
                    let reply = try? JSONDecoder().decode(ServiceReply.self, from: Data(answer.utf8)), reply.refused == nil
                else { continue }
                return (connection, reply.pid)
            } catch {
                continue
            }
        }
        return nil
    }
}

/// Why no service answered (said with `--explain` and by `status`).
package enum ServiceAbsence: Error, Sendable, Equatable, CustomStringConvertible {
    /// No service serves these folders.
    case none
    /// The runtime folder is missing from the environment or refused.
    case noRuntimeFolder(String)
    /// Its registration is there, its process is not.
    case dead(pid: Int32)
    case unreachable(pid: Int32, String)
    /// No answer within 100 ms.
    case silent(pid: Int32)
    case refused(pid: Int32, String)

    package var description: String {
        switch self {
        case .none: return "no photometa serve serves these folders"
        case .noRuntimeFolder(let why): return "no runtime folder (\(why))"
        case .dead(let pid): return "the service of pid \(pid) is gone"
        case .unreachable(let pid, let why): return "the service of pid \(pid) cannot be reached (\(why))"
        case .silent(let pid): return "the service of pid \(pid) did not answer within \(ServiceClient.timeoutMilliseconds) ms"
        case .refused(let pid, let why): return "the service of pid \(pid) did not answer: \(why)"
        }
    }
}
