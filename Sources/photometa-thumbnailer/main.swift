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
// Protocol (TabFields: a tab, newline or backslash inside a field is written \t, \n, \\):
// on standard input a first line holding a JSON object of options,
//   {"out": DIR | null, "cache": true, "width": 256, "height": 256, "mode": "fit",
//    "format": "png", "quality": 80, "delivery": "exact", "maxPixels": 100000000}
// then one line per file: PATH <TAB> NAME (the --out name, empty without --out);
// on standard output one line per file, in the order given, as each is ready:
//   INDEX <TAB> ok <TAB> PATH <TAB> WIDTH <TAB> HEIGHT <TAB> SOURCE <TAB> FORMAT
//   INDEX <TAB> error <TAB> REASON
// (not JSON: parsing 5,000 JSON lines cost more than answering them from the cache).
// Exit 0 when the request was read (whatever the files), 64 when it was not.

/// Writes one line to standard output at once (lines come from several threads).
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = FileDescriptorOutput.writeAll(1, bytes)
}

Signals.ignoreBrokenPipe()
let input = TabFields.lines(FileDescriptorInput.readAll(0))
guard let header = input.first, let request = (try? JSONSerialization.jsonObject(with: Data(header))) as? [String: Any]
else {
    FileDescriptorOutput.writeAll(2, Array("photometa-thumbnailer: expected a request on standard input\n".utf8))
    exit(64)
}
let entries = input.dropFirst().map(TabFields.fields)
let files = entries.map { $0.first ?? "" }
let names: [String]? = entries.contains { $0.count > 1 && !$0[1].isEmpty } ? entries.map { $0.count > 1 ? $0[1] : "" } : nil
var r = ThumbnailRequest()
r.width = request["width"] as? Int ?? 256
r.height = request["height"] as? Int ?? 256
r.mode = (request["mode"] as? String).flatMap(ThumbnailRequest.Mode.init(rawValue:)) ?? .fit
r.format = (request["format"] as? String).flatMap(ThumbnailFormat.init(rawValue:)) ?? .png
r.quality = request["quality"] as? Int ?? 80
r.delivery = (request["delivery"] as? String).flatMap(ThumbnailRequest.Delivery.init(rawValue:)) ?? .exact
r.maxPixels = request["maxPixels"] as? Int ?? 100_000_000
let out = request["out"] as? String
let thumbnailer = Thumbnailer(cache: (request["cache"] as? Bool ?? true) ? .standard() : nil)
let thumbnailRequest = r

let results = OrderedResults<String> { emit($0) }
_ = ParallelMap.run(files.count) { i -> Bool in
    var line: String
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
        line = TabFields.line(["\(i)", "ok", t.path ?? "", "\(t.width)", "\(t.height)", t.source.rawValue, t.format.rawValue])
    } catch {
        line = TabFields.line(["\(i)", "error", error.description])
    }
    results.deliver(i, line)
    return true
}
exit(0)
