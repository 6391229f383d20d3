import PhotoMetaCore
import PhotoMetaSystem

/// The file access of sidecars: finds the sidecars beside a picture (`SidecarNames`, pure) and
/// reads each whole, bounded, for the pure core to decode (`SidecarEvidence`). Only regular
/// files in the picture's own folder are read: a symbolic link is refused (`O_NOFOLLOW`), so a
/// link pointing out of the folder is never followed; a FIFO or device is refused before any
/// read; a file over `Limits.sidecarBytesMax` is not read. Each refusal is a diagnostic, and the
/// next source of the date is used.
enum SidecarReader {
    /// The sidecars of `path`, in `SidecarNames.candidates` order. `folder`, when the caller
    /// listed the picture's folder, says which candidates exist; otherwise each is tried.
    static func read(for path: String, folder: TreeWalker.Folder?) -> (files: [SidecarFile], diagnostics: [Diagnostic]) {
        // Most folders hold no sidecar at all: then no candidate name need be made.
        if let folder, folder.sidecarNames.isEmpty { return ([], []) }
        let slash = path.lastIndex(ofASCII: UInt8(ascii: "/"))
        let dir = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
        var files: [SidecarFile] = []
        var diagnostics: [Diagnostic] = []
        for candidate in SidecarNames.candidates(for: name) {
            if let folder, !folder.sidecarNames.contains(candidate.name) { continue }
            let sidecar = dir + candidate.name
            switch readBounded(sidecar) {
            case .success(let bytes): files.append(SidecarFile(kind: candidate.kind, path: sidecar, bytes: bytes))
            case .failure(.absent): continue
            case .failure(.refused(let why)): diagnostics.append(Diagnostic("sidecar", "\(sidecar): \(why); not read"))
            }
        }
        return (files, diagnostics)
    }

    enum Refusal: Error {
        case absent
        case refused(String)
    }

    static func readBounded(_ path: String) -> Result<[UInt8], Refusal> {
        let source: FileByteSource
        do throws(FileReadError) {
            source = try FileByteSource(path: path, followLinks: false)
        } catch {
            switch error {
            case .system(let e) where e == .noSuchFile: return .failure(.absent)
            case .system(let e) where e == .tooManyLinks: return .failure(.refused("a symbolic link"))
            default: return .failure(.refused(error.description))
            }
        }
        guard source.size <= Int64(Limits.sidecarBytesMax) else {
            return .failure(.refused("\(source.size) bytes, over the \(Limits.sidecarBytesMax >> 20) MiB sidecar limit"))
        }
        do {
            return .success(try source.read(at: 0, count: Int(source.size)))
        } catch {
            return .failure(.refused("\(error)"))
        }
    }
}
