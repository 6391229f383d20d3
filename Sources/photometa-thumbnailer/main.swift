import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem
import PhotoMetaThumbnails
import Synchronization

// photometa-thumbnailer: the process that links the image libraries, so `photometa` itself does
// not (its metadata commands start in milliseconds, without libvips' 200 shared libraries), and
// a decoder that crashes takes down this process only. `photometa thumbnail` and
// `--thumbnail` run it (docs/thumbnails.md, "The helper process").
//
// Protocol: one JSON object on standard input,
//   {"files": [PATH...], "names": [NAME...] | null, "out": DIR | null, "cache": true,
//    "width": 256, "height": 256, "mode": "fit", "format": "png", "quality": 80,
//    "delivery": "exact", "maxPixels": 100000000}
// then one JSON line per file on standard output, in the order of "files", as each is ready:
//   {"index": 0, "thumbnail": {"path", "width", "height", "source", "format"} | null,
//    "error": null | "reason"}
// Exit 0 when the request was read (whatever the files), 64 when it was not.

/// Writes one line to standard output at once (lines come from several threads).
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = FileDescriptorOutput.writeAll(1, bytes)
}

Signals.ignoreBrokenPipe()
let input = FileHandle.standardInput.readDataToEndOfFile()
guard let request = (try? JSONSerialization.jsonObject(with: input)) as? [String: Any],
    let files = request["files"] as? [String]
else {
    FileHandle.standardError.write(Data("photometa-thumbnailer: expected a JSON request on standard input\n".utf8))
    exit(64)
}
var r = ThumbnailRequest()
r.width = request["width"] as? Int ?? 256
r.height = request["height"] as? Int ?? 256
r.mode = (request["mode"] as? String).flatMap(ThumbnailRequest.Mode.init(rawValue:)) ?? .fit
r.format = (request["format"] as? String).flatMap(ThumbnailFormat.init(rawValue:)) ?? .png
r.quality = request["quality"] as? Int ?? 80
r.delivery = (request["delivery"] as? String).flatMap(ThumbnailRequest.Delivery.init(rawValue:)) ?? .exact
r.maxPixels = request["maxPixels"] as? Int ?? 100_000_000
let out = request["out"] as? String
let names = request["names"] as? [String]
let thumbnailer = Thumbnailer(cache: (request["cache"] as? Bool ?? true) ? .standard() : nil)
let thumbnailRequest = r

let results = OrderedResults<String> { emit($0) }
_ = ParallelMap.run(files.count) { i -> Bool in
    var o: [String: Any] = ["index": i, "thumbnail": NSNull(), "error": NSNull()]
    do throws(ThumbnailError) {
        var t = try thumbnailer.thumbnail(of: files[i], thumbnailRequest)
        if let out, let names, i < names.count {
            let target = (out.hasSuffix("/") ? out : out + "/") + names[i]
            do throws(PrivateFiles.Problem) {
                try PrivateFiles.replaceAtomically(target, with: t.bytes)
            } catch {
                throw .cannotWrite(error.description)
            }
            t.path = target
        }
        o["thumbnail"] = [
            "path": t.path as Any? ?? NSNull(), "width": t.width, "height": t.height, "source": t.source.rawValue,
            "format": t.format.rawValue,
        ]
    } catch {
        o["error"] = error.description
    }
    let line =
        (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]))
        .map { String(decoding: $0, as: UTF8.self) } ?? "{\"index\":\(i),\"thumbnail\":null,\"error\":\"cannot encode\"}"
    results.deliver(i, line)
    return true
}
exit(0)
