import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem
import PhotoMetaThumbnailCache

/// Runs `photometa-thumbnailer`, the process that links libvips and libffmpegthumbnailer, so
/// that `photometa` itself links no image library: `inspect` and `suggest` start without
/// loading libvips' two hundred shared libraries, and a decoder that crashes takes down the
/// helper, not the command (its files get an error). The protocol is `ThumbnailJob` (the
/// options line, then one line per file) in and `ThumbnailReply` (one line per file) out.
enum ThumbnailerProcess {
    /// The freedesktop cache's largest size (`xx-large`).
    static let largestCacheSize = ThumbnailCache.Bucket.xxLarge.rawValue

    /// A thumbnail made.
    typealias Made = ThumbnailReply.Made

    /// One file's outcome.
    struct Outcome {
        var file: String
        var thumbnail: Made?
        var error: String?
    }

    /// One result line (`ThumbnailReply`) as the outcome of one of `files`.
    static func parse(_ line: ArraySlice<UInt8>, _ files: [String]) -> (Int, Outcome)? {
        guard let reply = ThumbnailReply(line: line), reply.index < files.count else { return nil }
        switch reply {
        case .made(let i, let made): return (i, Outcome(file: files[i], thumbnail: made, error: nil))
        case .failed(let i, let reason): return (i, Outcome(file: files[i], thumbnail: nil, error: reason))
        }
    }

    /// The files whose entry for the bucket of `side` is valid in the user's cache, looked up
    /// on all cores (GLib's names only, no image library): what needs no thumbnailer.
    static func cacheHits(_ files: [String], side: Int) -> [Made?] {
        let cache = ThumbnailCache.standard()
        return ParallelMap.run(files.count) { i -> Made? in
            cache.validEntry(for: files[i], side: side).map {
                Made(path: $0.path, width: $0.width, height: $0.height, source: "cache", format: "png")
            }
        }
    }

    /// The helper: `PHOTOMETA_THUMBNAILER`, else beside this executable, else in
    /// `../libexec/photometa/`. Not found: the paths tried, for the message.
    static func helper() -> Result<String, HelperMissing> {
        if let p = ProcessInfo.processInfo.environment["PHOTOMETA_THUMBNAILER"], !p.isEmpty {
            return FileSystem.isExecutableFile(p) ? .success(p) : .failure(HelperMissing(tried: [p], fromEnvironment: true))
        }
        let exe = FileSystem.executablePath() ?? CommandLine.arguments[0]
        let dir = exe.lastIndex(of: "/").map { String(exe[..<$0]) } ?? "."
        let tried = [dir + "/photometa-thumbnailer", dir + "/../libexec/photometa/photometa-thumbnailer"]
        if let found = tried.first(where: FileSystem.isExecutableFile) { return .success(found) }
        return .failure(HelperMissing(tried: tried, fromEnvironment: false))
    }

    /// No helper where photometa looks for it.
    struct HelperMissing: Error, CustomStringConvertible {
        var tried: [String]
        var fromEnvironment: Bool
        var description: String {
            let paths = tried.map(TerminalText.escape).joined(separator: " nor ")
            if fromEnvironment { return "PHOTOMETA_THUMBNAILER names \(paths), which is not an executable file" }
            return
                "photometa-thumbnailer is not installed beside photometa (neither \(paths) is an executable file; make install puts it there)"
        }
    }

    /// Thumbnails `files` and calls `each` with every file's index and outcome, in order, as
    /// they come. Every file gets exactly one call, whatever happens to the helper.
    static func run(
        files: [String], names: [String]?, job: ThumbnailJob, each: (Int, Outcome) -> Void
    ) {
        guard !files.isEmpty else { return }
        var delivered = 0
        func fail(_ why: String) {
            while delivered < files.count {
                each(delivered, Outcome(file: files[delivered], thumbnail: nil, error: why))
                delivered += 1
            }
        }
        let helper: String
        switch Self.helper() {
        case .success(let found): helper = found
        case .failure(let missing): return fail(missing.description)
        }
        var text = job.line + "\n"
        for (i, f) in files.enumerated() { text += TabFields.line([f, names?[i] ?? ""]) + "\n" }
        let child: ChildProcess
        do throws(SystemError) {
            child = try ChildProcess(executable: helper)
        } catch {
            return fail("photometa-thumbnailer (\(TerminalText.escape(helper))) could not start: \(error)")
        }
        // Written from another thread: a long request must not wait for the answers it causes.
        let body = Array(text.utf8)
        let feeding = DispatchGroup()
        feeding.enter()
        DispatchQueue.global().async {
            child.finishInput(body)
            feeding.leave()
        }
        var pending: [UInt8] = []
        while true {
            let chunk = child.readOutput()
            if chunk.isEmpty { break }
            pending += chunk
            var start = 0
            while let nl = pending[start...].firstIndex(of: 0x0A) {
                if let (i, o) = parse(pending[start..<nl], files), i == delivered {
                    each(i, o)
                    delivered += 1
                }
                start = nl + 1
            }
            pending.removeFirst(start)
        }
        feeding.wait()
        let ended = child.wait()
        if delivered < files.count { fail("photometa-thumbnailer \(ended) before this file") }
    }
}
