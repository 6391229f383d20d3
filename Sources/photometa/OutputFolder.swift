import Foundation
import PhotoMetaSystem

/// `--out DIR`: made when missing, never the media's own folder by accident, one name per file.
enum OutputFolder {
    static func make(_ dir: String) throws(PrivateFiles.Problem) {
        if let f = try? FileFacts.of(dir), f.type == .directory { return }
        try PrivateFiles.ensureFolder(dir.hasPrefix("/") ? dir : (FileSystem.currentFolder() ?? ".") + "/" + dir)
    }

    /// Why a `DIR` that is the file's own folder is refused (nil when it is not, or when it
    /// was written exactly as in FILE).
    static func refusal(_ dir: String, for file: String) -> String? {
        let folderAsWritten = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? "."
        let trimmed = dir.count > 1 && dir.hasSuffix("/") ? String(dir.dropLast()) : dir
        guard trimmed != (folderAsWritten.isEmpty ? "/" : folderAsWritten) else { return nil }
        guard let a = try? FileSystem.canonicalPath(dir), let b = try? FileSystem.canonicalPath(folderAsWritten), a == b
        else { return nil }
        return
            "cannot write the thumbnail: --out \(dir) is the file's own folder; photometa does not write beside the media unless --out names that folder exactly as FILE does (\(folderAsWritten))"
    }

    /// NAME.FORMAT for each file (its whole name, so IMG_0001.HEIC and IMG_0001.MOV differ);
    /// a name met twice gets "-2", "-3"..., the first number whose name no file of the run
    /// has (a file may be called `x.jpg-2`: two pictures never go to one name).
    static func names(_ files: [String], extension ext: String) -> [String] {
        var next: [String: Int] = [:]
        var taken: Set<String> = []
        return files.map { f in
            let base = f.split(separator: "/").last.map(String.init) ?? "thumbnail"
            var n = next[base, default: 1]
            var name = base + "." + ext
            while taken.contains(name) {
                n += 1
                name = "\(base)-\(n).\(ext)"
            }
            next[base] = n
            taken.insert(name)
            return name
        }
    }
}
