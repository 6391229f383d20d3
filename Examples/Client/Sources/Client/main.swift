// The examples of docs/api.md, one function each, run against Fixtures/library.
// Usage: Client LIBRARY_FOLDER
import Foundation
import PhotoMeta
import PhotoMetaThumbnails

/// Inspect a file.
func inspectAFile(_ path: String) {
    let asset = FileInspector.inspect(path: path)
    if let error = asset.error {
        print("\(path): \(error)")
        return
    }
    print("\(asset.path): \(asset.kind), \(asset.format)")
    if let date = asset.captured {
        let utc = TimeZone(identifier: "UTC") ?? .current
        print("  taken \(date.rendered(in: utc).local) (\(date.source.rawValue)), exact: \(date.isExact)")
    }
}

/// Inspect bytes already in memory (a download, an attachment): nothing is opened.
func inspectBytes(_ bytes: [UInt8]) -> MediaAsset {
    let asset = Inspector.inspect(bytes: bytes, path: "attachment.jpg")
    print("attachment: \(asset.format), \(asset.width ?? 0) x \(asset.height ?? 0)")
    return asset
}

/// The report as JSON through Codable (the same shape as `photometa inspect --json`).
func reportAsJSON(_ asset: MediaAsset) throws {
    let encoder = JSONEncoder()
    encoder.userInfo[.photoMetaZone] = TimeZone(identifier: "Asia/Shanghai")
    let data = try encoder.encode(asset)
    let back = try JSONDecoder().decode(MediaAsset.self, from: data)
    print("JSON round trip keeps the kind: \(back.kind == asset.kind)")
}

/// Inspect a whole tree on all cores, results in path order.
func inspectATree(_ folder: String) {
    InspectionRunner.run(
        paths: [folder], recursive: true,
        problem: { problem in print("problem: \(problem)") },
        render: { _, asset in "\(asset.kind.rawValue)\t\(asset.path)" },
        emit: { line in print(line) })
}

/// Run a suggestion: which photo would a chat app offer now?
func runASuggestion(_ folder: String, state: String) async {
    var options = Suggester.Options(settings: SuggestionSettings(zone: .current))
    options.settings.within = .seconds(120)
    options.statePath = state
    options.indexPath = nil
    options.record = false  // like --peek
    let suggester = Suggester(options: options)
    // A use case is Sendable: run it off the caller's task.
    let outcome = await Task.detached { () -> Result<Suggester.Outcome, SuggestError> in
        do throws(SuggestError) {
            return .success(try suggester.run(folder: folder))
        } catch {
            return .failure(error)
        }
    }.value
    switch outcome {
    case .success(let o):
        if let s = o.decision.suggestion {
            print("You may want to send: \(s.path)")
        } else {
            print("Nothing new to send (\(o.decision.considered) files considered).")
        }
        for r in o.decision.rejected.prefix(3) { print("  \(r.path): \(r.rule): \(r.reason)") }
    case .failure(let error):
        print("suggest failed: \(error)")
    }
}

/// The docs/api.md form: typed errors, a permission problem told apart.
func suggestHandlingErrors(_ folder: String, state: String) {
    var options = Suggester.Options(settings: SuggestionSettings(zone: .current))
    options.settings.within = .seconds(120)
    options.statePath = state
    options.record = false  // like --peek
    let suggester = Suggester(options: options)
    do throws(SuggestError) {
        let outcome = try suggester.run(folder: folder)
        if let s = outcome.decision.suggestion {
            print("You may want to send: \(s.path) (\(s.kind))")
        }
        for r in outcome.decision.rejected where r.rule == .completeness { print("still being written: \(r.path)") }
    } catch .unreadableFolder(let path, let error) where error.isPermissionDenied {
        print("no permission to read \(path)")
    } catch {
        print(error)  // SuggestError, e.g. .state(.busy(path:))
    }
}

/// docs/api.md, "A photo library": the picker after "+" (the newest, newest first), and the
/// suggestion without recording it.
func openALibrary(_ folder: String, state: String) {
    var options = PhotoLibrary.Options(zone: TimeZone(identifier: "UTC") ?? .current)
    options.indexPath = nil
    options.statePath = state
    do throws(SuggestError) {
        let library = try PhotoLibrary(folders: [folder], options: options)
        let recent = try library.recent(limit: 5, kinds: PhotoLibrary.stillKinds.union([.video]))
        for asset in recent.assets {
            let when = asset.captured?.rendered(in: options.zone).local ?? "?"
            print("recent: \(when) \(asset.kind.rawValue) \(asset.path)")
        }
        let outcome = try library.suggestion()
        print("suggestion now: \(outcome.decision.suggestion?.path ?? "none"), recorded: \(outcome.recorded)")
    } catch {
        print("library failed: \(error)")
    }
}

/// Watch a folder: changes and suggestions as they happen, until the stream is dropped.
func watchAFolder(_ folder: String) async throws {
    let watcher = try DirectoryWatcher(folder: folder, options: DirectoryWatcher.Options(suggestions: nil))
    for await event in watcher.events() {
        switch event {
        case .ready:
            print("watching \(folder)")
            // Drop the stream: watching stops.
            return
        case .changes(let c): print("+\(c.inserted.count) -\(c.removed.count) ~\(c.changed.count) >\(c.moved.count)")
        case .suggestion(let s, _): print("offer \(s.path)")
        case .standing(let s, _): print("still on offer \(s.path)")
        case .withdrawn(let w): print("withdrawn \(w.path) (\(w.reason.rawValue))")
        case .note(let n): print("note: \(n)")
        case .error(let e): print("error: \(e)")  // e.g. the memory could not be written
        case .folderGone: return
        }
    }
}

/// The README's example.
func readmeExample(_ library: String) throws {
    // From a path: stat, open, read, Live Photo pairing. Never throws; problems land in `error`.
    let asset = FileInspector.inspect(path: library + "/no_offset.jpg")

    // From bytes already in memory: the pure core, no file system access.
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: library + "/IMG_20240315_093012.jpg")))
    let fromMemory = Inspector.inspect(bytes: bytes, path: "IMG_20240315_093012.jpg")

    let shanghai = TimeZone(identifier: "Asia/Shanghai") ?? .current
    print(AssetReport(zone: shanghai).json(asset))

    if let captured = fromMemory.captured {
        let r = captured.rendered(in: shanghai)
        print(captured.source.rawValue, r.local, r.offset ?? "?", r.utc ?? "?", r.offsetSource?.rawValue ?? "-")
    }
    print(fromMemory.kind.rawValue, fromMemory.format.rawValue, fromMemory.diagnostics)
}

/// docs/api.md, "Make a thumbnail": no cache, the exact picture, then quick-then-exact.
func makeAThumbnail(_ path: String) async {
    let thumbnailer = Thumbnailer(cache: nil)
    var request = ThumbnailRequest(width: 8, height: 8, mode: .crop, format: .jpeg)
    do {
        let t = try thumbnailer.thumbnail(of: path, request)
        print("thumbnail", t.width, t.height, t.format.rawValue, t.source.rawValue, t.bytes.count > 0)
        request.delivery = .opportunistic
        for try await picture in thumbnailer.thumbnails(of: path, request) { print("delivered", picture.source.rawValue) }
    } catch let error as ThumbnailError {
        print("no thumbnail:", error)
    } catch {
        print(error)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: Client LIBRARY_FOLDER")
    exit(64)
}
let library = arguments[1]
try readmeExample(library)
inspectAFile(library + "/IMG_20240315_093012.jpg")
let bytes = (try? Data(contentsOf: URL(fileURLWithPath: library + "/IMG_20240315_093012.jpg"))).map { [UInt8]($0) } ?? []
try reportAsJSON(inspectBytes(bytes))
inspectATree(library)
let state = FileManager.default.temporaryDirectory.appendingPathComponent("photometa-client-\(getpid()).sqlite3").path
await runASuggestion(library, state: state)
suggestHandlingErrors(library + "/no-such-folder", state: state)
openALibrary(library, state: state)
try await watchAFolder(library)
await makeAThumbnail(library + "/IMG_20240315_093012.jpg")
try? FileManager.default.removeItem(atPath: state)
