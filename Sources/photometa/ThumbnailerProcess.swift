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
        /// How the helper that answered was confined (nil when no helper answered).
        var confinement: Confinement?
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
        if let p = ProcessEnvironment.current["PHOTOMETA_THUMBNAILER"], !p.isEmpty {
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
            let paths = tried.joined(separator: " nor ")
            if fromEnvironment { return "PHOTOMETA_THUMBNAILER names \(paths), which is not an executable file" }
            return
                "photometa-thumbnailer is not installed beside photometa (neither \(paths) is an executable file; make install puts it there)"
        }
    }

    /// Thumbnails `files` and calls `each` with every file's index and outcome, in order, as
    /// they come. Every file gets exactly one call, whatever happens to the helper. Returns how
    /// the helper said it was confined (nil when no helper ran, or an old one said nothing).
    ///
    /// A helper killed by a signal (a decoder's crash, the CPU or memory limit of its
    /// confinement, docs/sandbox.md) takes one file down, not the batch: the first file it had
    /// not answered is thumbnailed again alone, and gets the error if that helper dies too;
    /// the files after it go to a new helper. A helper that exits (it could not start, or a
    /// usage error) fails every file left, as retrying would do the same.
    @discardableResult
    static func run(
        files: [String], names: [String]?, job: ThumbnailJob, shouldStop: () -> Bool = { false },
        each: (Int, Outcome) -> Void
    ) -> Confinement? {
        var next = 0
        var alone = false
        var confinement: Confinement?
        while next < files.count {
            let end = alone ? next + 1 : files.count
            let batch = Array(files[next..<end])
            let attempt = runOnce(files: batch, names: names.map { Array($0[next..<end]) }, job: job, shouldStop: shouldStop) {
                k, o in each(next + k, o)
            }
            confinement = attempt.confinement ?? confinement
            if attempt.stopped { return confinement }
            next += attempt.delivered
            guard next < files.count, attempt.delivered < batch.count else {
                alone = false
                continue
            }
            // It hung on the file it was at: that file fails, the rest go to a new helper.
            if attempt.timedOut {
                each(next, Outcome(file: files[next], thumbnail: nil, error: attempt.failure ?? "no answer"))
                next += 1
                alone = false
                continue
            }
            let killed: ChildProcess.Termination? = { if case .signalled = attempt.ended { attempt.ended } else { nil } }()
            if let killed {
                if !alone, batch.count > 1 {
                    alone = true
                    continue
                }
                each(next, Outcome(file: files[next], thumbnail: nil, error: "photometa-thumbnailer \(killed) on this file"))
                next += 1
                alone = false
                continue
            }
            let why = attempt.failure ?? "photometa-thumbnailer ended before this file"
            for i in next..<files.count { each(i, Outcome(file: files[i], thumbnail: nil, error: why)) }
            next = files.count
        }
        return confinement
    }

    /// One helper's run over `files`: how many it answered in order, how it ended and why the
    /// rest got none.
    struct Attempt {
        var delivered = 0
        /// The helper answered nothing for `answerTimeout` and was stopped.
        var timedOut = false
        var ended: ChildProcess.Termination?
        var failure: String?
        var confinement: Confinement?
        /// `shouldStop` said to stop (the reader of the answers went away): the helper was let go.
        var stopped = false
    }

    /// How long the helper may go without answering (one file's thumbnail, its first line)
    /// before it is stopped: more than twice the CPU time its first file may take (35 s,
    /// docs/sandbox.md), for a slow disk. Test builds
    /// take PHOTOMETA_HELPER_TIMEOUT_MS instead, so a test need not wait two minutes.
    static let answerTimeout: (seconds: Int, milliseconds: Int32) = {
        #if DEBUG
            if let ms = ProcessEnvironment.current["PHOTOMETA_HELPER_TIMEOUT_MS"].flatMap(Int32.init), ms > 0 {
                return ((Int(ms) + 999) / 1000, ms)
            }
        #endif
        return (80, 80_000)
    }()

    static func runOnce(
        files: [String], names: [String]?, job: ThumbnailJob, shouldStop: () -> Bool = { false },
        each: (Int, Outcome) -> Void
    ) -> Attempt {
        var attempt = Attempt()
        let helper: String
        switch Self.helper() {
        case .success(let found): helper = found
        case .failure(let missing):
            attempt.failure = missing.description
            return attempt
        }
        var text = job.line + "\n"
        for (i, f) in files.enumerated() { text += TabFields.line([f, names?[i] ?? ""]) + "\n" }
        let child: ChildProcess
        do throws(SystemError) {
            child = try ChildProcess(executable: helper, helper: true)
        } catch {
            attempt.failure = "photometa-thumbnailer (\(helper)) could not start: \(error)"
            return attempt
        }
        // Written from another thread: a long request must not wait for the answers it causes.
        // A thread of its own (it may block on a full pipe), not libdispatch's pool (`serve
        // --jsonl --thumbnail` would then wake once a second for good: `WorkerPool`).
        let body = Array(text.utf8)
        let feeding = DispatchGroup()
        feeding.enter()
        Thread {
            child.finishInput(body)
            feeding.leave()
        }.start()
        var pending: [UInt8] = []
        while true {
            // A helper blocked without using CPU (a stalled network disk, a decoder's deadlock)
            // never meets its CPU limit: one that answers nothing for `answerTimeout` is given up.
            guard child.outputReady(within: answerTimeout.milliseconds) else {
                child.abandon()
                feeding.wait()
                attempt.timedOut = true
                attempt.failure = "photometa-thumbnailer gave no answer within \(answerTimeout.seconds) s; stopped"
                return attempt
            }
            let chunk = child.readOutput()
            if chunk.isEmpty { break }
            pending += chunk
            var start = 0
            while let nl = pending[start...].firstIndex(of: 0x0A) {
                if case (let i, var o)? = parse(pending[start..<nl], files), i == attempt.delivered {
                    o.confinement = attempt.confinement
                    each(i, o)
                    attempt.delivered += 1
                    // Nobody reads the answers any more: the helper's remaining files are
                    // dropped (the spawner kills it when it is let go).
                    if shouldStop() {
                        child.abandon()
                        feeding.wait()
                        attempt.stopped = true
                        return attempt
                    }
                } else if let c = Confinement(line: pending[start..<nl]) {
                    attempt.confinement = c
                }
                start = nl + 1
            }
            pending.removeFirst(start)
        }
        feeding.wait()
        let ended = child.wait()
        attempt.ended = ended
        attempt.failure = "photometa-thumbnailer \(ended) before this file"
        return attempt
    }
}
