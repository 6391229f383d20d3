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
// Protocol: `ThumbnailJob` (Sources/PhotoMetaThumbnailCache/ThumbnailJob.swift), in TabFields
// lines (a tab, newline or backslash inside a field is written \t, \n, \\): on standard input
// the options line, `options <TAB> width=256 <TAB> height=256 <TAB> mode=fit ... [<TAB> out=DIR]`,
// then one line per file: PATH <TAB> NAME (the --out name, empty without --out); on standard
// output one `ThumbnailReply` line per file, in the order given, as each is ready:
//   INDEX <TAB> ok <TAB> PATH <TAB> WIDTH <TAB> HEIGHT <TAB> SOURCE <TAB> FORMAT
//   INDEX <TAB> error <TAB> REASON
// (not JSON: parsing 5,000 JSON lines cost more than answering them from the cache).
// Before the first reply the helper says how it is confined, in one `Confinement` line
// (`confinement <TAB> noNewPrivs=1 <TAB> landlock=7 ...`): it loads libvips, reads the request,
// then confines itself (HelperConfinement.swift, docs/sandbox.md) before it opens any file.
// Exit 0 when the request was read (whatever the files), 64 when it was not.

/// Writes one line to standard output at once (lines come from several threads).
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = FileDescriptorOutput.writeAll(1, bytes)
}

Signals.ignoreBrokenPipe()
let input = TabFields.lines(FileDescriptorInput.readAll(0))
guard let header = input.first, let job = ThumbnailJob(line: header) else {
    FileDescriptorOutput.writeAll(2, Array("photometa-thumbnailer: expected an options line on standard input\n".utf8))
    exit(64)
}
let entries = input.dropFirst().map(TabFields.fields)
let files = entries.map { $0.first ?? "" }
let names: [String]? = entries.contains { $0.count > 1 && !$0[1].isEmpty } ? entries.map { $0.count > 1 ? $0[1] : "" } : nil
let out = job.out
let thumbnailer = Thumbnailer(cache: job.cache ? .standard() : nil)
let thumbnailRequest = job.request
// Every library loaded, the request read, no file opened yet: confine.
Thumbnailer.loadLibraries()
emit(HelperConfinement.confine(files: files, job: job, cacheRoot: thumbnailer.cache?.root).line)
HelperConfinement.probeIfAsked(emit)

let results = OrderedResults<String> { emit($0) }
_ = ParallelMap.run(files.count) { i -> Bool in
    var line: String
    HelperConfinement.spinIfAsked(files[i])
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
        let made = ThumbnailReply.Made(
            path: t.path, width: t.width, height: t.height, source: t.source.rawValue, format: t.format.rawValue)
        line = ThumbnailReply.made(index: i, made).line
    } catch {
        line = ThumbnailReply.failed(index: i, reason: error.description).line
    }
    results.deliver(i, line)
    return true
}
exit(0)
