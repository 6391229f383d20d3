import Foundation
import PhotoMetaCore
import PhotoMetaSystem

/// Inspects many files on all cores while the scan is still finding them, and hands results
/// back in scan order (path order) as soon as each prefix is complete: `--jsonl` streams, and
/// memory is bounded by the work in flight, not by the size of the tree. Rendering (JSON, text)
/// happens on the workers too: only the ordered hand-over is serial.
public enum InspectionRunner {
    /// A file to inspect, as the scan found it.
    public struct Item: Sendable {
        /// The path as given, or the walked folder's path joined with the name.
        public var path: String
        /// Named on the command line (it always gets a result, even when it is not media).
        public var explicit: Bool
    }

    /// Something the scan met that is not a file to inspect.
    public enum Problem: Sendable {
        /// A path that could not be listed or used, with the reason (an error for the caller).
        case unreadable(path: String, reason: String)
        /// An entry that is not a regular file (FIFO, socket, device, a link not followed):
        /// skipped and counted.
        case notAFile(path: String)
    }

    /// A list of paths to inspect after the arguments (`--files-from`): read as it is used, so
    /// a list of any length costs one path of memory.
    public struct FileList: Sendable {
        let reader: PathListReader

        /// The list in the file at `path` ("-" for standard input), one path per line, or
        /// NUL-separated when `nul` (`-0`, as `find -print0` writes). Throws when it cannot be
        /// opened.
        public init(path: String, nul: Bool) throws(SystemError) {
            reader = try PathListReader(path: path, nul: nul)
        }

        /// The error that ended the list early, once it has been read.
        public var failure: SystemError? { reader.failure }
    }

    /// How many scanned items may wait for a worker.
    static let queueLimit = 1024

    /// How many consecutive files a worker takes at once: one hand-over of work and one of
    /// results per run rather than per file (docs/performance.md, "inspect, warm and cold").
    static let runLength = 8

    /// Workers are threads that mostly wait for the disk when it is cold; each opens a run of
    /// files and asks for their first reads at once (`prefetched`), so a few workers keep many
    /// reads in flight, which a cold disk answers faster together than one by one. Two a core,
    /// not more: with a warm page cache extra threads only take turns on the cores.
    /// (docs/performance.md, "inspect, warm and cold".)
    public static let defaultWorkers = min(16, max(2, 2 * ProcessInfo.processInfo.activeProcessorCount))

    /// Inspects `paths` (folders walked when `recursive`), then the paths of `fileList` in
    /// their order; `exclude` patterns (`PathGlob`) leave entries of walked folders out;
    /// `sidecars` false leaves XMP sidecars and Takeout JSON unread (`--no-sidecars`); `stop`,
    /// once set (the reader of the results went away), ends the scan and the work after the
    /// runs in hand, and what remains is not inspected.
    /// `render` runs on the workers, concurrently; `emit` is called once per item,
    /// in scan order, never concurrently; `problem` receives what the scan could not use, from
    /// the scanning thread; `scanned`, when given, hears how many files the scan has found so
    /// far, and `finished` once it found them all (for a progress display).
    public static func run<Rendered: Sendable>(
        paths: [String], fileList: FileList? = nil, recursive: Bool, exclude: [String] = [], sidecars: Bool = true,
        workers: Int = InspectionRunner.defaultWorkers, stop: StopFlag? = nil,
        scanned: (@Sendable (_ count: Int, _ finished: Bool) -> Void)? = nil,
        problem: @escaping @Sendable (Problem) -> Void,
        render: @escaping @Sendable (Item, MediaAsset) -> Rendered,
        emit: @escaping @Sendable (Rendered) -> Void
    ) {
        var shouldStop: (@Sendable () -> Bool)?
        if let stop { shouldStop = { stop.isSet } }
        let scanner = CommandLinePaths(recursive: recursive, exclude: exclude.compactMap(PathGlob.init), shouldStop: shouldStop)
        // A few named files: on this thread, since each hand-over between threads wakes one,
        // which an idle core can take milliseconds to do (docs/performance.md, "One file...").
        if runsInline(paths: paths, recursive: recursive, fileList: fileList) {
            inline(paths, scanner: scanner, sidecars: sidecars, scanned: scanned, problem: problem, render: render, emit: emit)
            return
        }
        let queue = WorkQueue<CommandLinePaths.Item>(limit: queueLimit)
        let results = OrderedResults<Rendered>(emit: emit)
        let producer = Thread {
            // Items are handed over in batches: a wake-up per file costs more than the file.
            var batch: [CommandLinePaths.Item] = []
            batch.reserveCapacity(64)
            var count = 0
            // Before a read of the list that may wait (a pipe fed slowly), what was found so far
            // goes to the workers: results stream as the list arrives.
            let listed: (() -> String?)? = fileList.map { list in
                {
                    if list.reader.needsRead, !batch.isEmpty {
                        queue.push(batch)
                        batch.removeAll(keepingCapacity: true)
                        scanned?(count, false)
                    }
                    return list.reader.next()
                }
            }
            scanner.scan(paths, listed: listed) { event in
                switch event {
                case .item(let item):
                    batch.append(item)
                    count += 1
                    if batch.count == 64 {
                        queue.push(batch)
                        batch.removeAll(keepingCapacity: true)
                        scanned?(count, false)
                    }
                case .problem(let path, let reason, let notAFile):
                    problem(notAFile ? .notAFile(path: path) : .unreadable(path: path, reason: reason))
                }
            }
            queue.push(batch)
            scanned?(count, true)
            queue.finish()
        }
        producer.start()
        let pairing = PairingFolders()
        let done = DispatchGroup()
        let workers = max(1, workers)
        for _ in 0..<workers {
            done.enter()
            Thread {
                work(queue, results, workers: workers, pairing: pairing, sidecars: sidecars, stop: stop, render: render)
                done.leave()
            }.start()
        }
        done.wait()
    }

    /// One worker: runs of files taken in turn, inspected, rendered and handed over in order,
    /// until the queue is finished (or `stop` is set: then it is cancelled).
    private static func work<Rendered: Sendable>(
        _ queue: WorkQueue<CommandLinePaths.Item>, _ results: OrderedResults<Rendered>, workers: Int,
        pairing: PairingFolders, sidecars: Bool, stop: StopFlag?, render: @Sendable (Item, MediaAsset) -> Rendered
    ) {
        var rendered: [Rendered] = []
        var opened: [FileByteSource?] = []
        while let (first, run) = queue.pop(sharingWith: workers, atMost: runLength) {
            rendered.removeAll(keepingCapacity: true)
            opened = prefetched(run)
            for (k, item) in zip(run.indices, run) {
                let source = opened[k - run.startIndex]
                opened[k - run.startIndex] = nil  // closed once read, not at the end of the run
                let asset = FileInspector.inspect(
                    path: item.path, pairLivePhotos: true, facts: item.facts, folder: item.folder,
                    pairing: pairing, sidecars: sidecars, opened: source)
                rendered.append(render(Item(path: item.path, explicit: item.explicit), asset))
            }
            results.deliver(first: first, rendered)
            if stop?.isSet == true {
                queue.cancel()
                return
            }
        }
    }

    /// Whether `run` inspects on the calling thread: a few files named on the command line (no
    /// folder walked, no list), which take less time than a hand-over between threads.
    public static func runsInline(paths: [String], recursive: Bool, fileList: FileList?) -> Bool {
        !recursive && fileList == nil && paths.count <= runLength
    }

    /// `run` for a few files named on the command line, on the calling thread: the same scan,
    /// the same first reads asked for at once, the same results in the same order.
    private static func inline<Rendered: Sendable>(
        _ paths: [String], scanner: CommandLinePaths, sidecars: Bool,
        scanned: (@Sendable (_ count: Int, _ finished: Bool) -> Void)?,
        problem: @Sendable (Problem) -> Void,
        render: @Sendable (Item, MediaAsset) -> Rendered,
        emit: @Sendable (Rendered) -> Void
    ) {
        var items: [CommandLinePaths.Item] = []
        scanner.scan(paths) { event in
            switch event {
            case .item(let item): items.append(item)
            case .problem(let path, let reason, let notAFile):
                problem(notAFile ? .notAFile(path: path) : .unreadable(path: path, reason: reason))
            }
        }
        scanned?(items.count, true)
        var opened = prefetched(items[...])
        let pairing = PairingFolders()
        for (k, item) in items.enumerated() {
            let source = opened[k]
            opened[k] = nil  // closed once read
            let asset = FileInspector.inspect(
                path: item.path, pairLivePhotos: true, facts: item.facts, folder: item.folder,
                pairing: pairing, sidecars: sidecars, opened: source)
            emit(render(Item(path: item.path, explicit: item.explicit), asset))
        }
    }

    /// The run's regular files opened and their first reads asked for (`FileByteSource.openedAhead`).
    static func prefetched(_ run: ArraySlice<CommandLinePaths.Item>) -> [FileByteSource?] {
        FileByteSource.openedAhead(run.map { $0.unexamined || $0.facts?.type == .regular ? $0.path : nil })
    }
}
