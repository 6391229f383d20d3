import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// `$XDG_RUNTIME_DIR/photometa`: where a running `photometa serve` announces itself (its lock
/// and its socket), so that the same user's other photometa processes find it.
///
/// The XDG Base Directory specification makes `XDG_RUNTIME_DIR` a folder of the user's alone
/// (mode 0700, removed at logout). photometa checks rather than trusts it: the base and the
/// folder must each be a real folder (not a symbolic link), the user's own, and writable by no
/// one else (`PrivateFiles.checkFolder`). A folder that fails is refused, and the caller says
/// why; the service is then not announced and clients scan.
package struct RuntimeFolder: Sendable, Equatable {
    /// Why there is no runtime folder to use: the caller says so ("clients cannot find it").
    package enum Unavailable: Error, Sendable, Equatable, CustomStringConvertible {
        /// `XDG_RUNTIME_DIR` is not set (or empty).
        case unset
        /// `XDG_RUNTIME_DIR` is not an absolute path (the specification says to ignore it then).
        case notAbsolute(String)

        package var description: String {
            switch self {
            case .unset: return "XDG_RUNTIME_DIR is not set"
            case .notAbsolute(let value): return "XDG_RUNTIME_DIR (\(value)) is not an absolute path"
            }
        }
    }

    /// Why a runtime folder is refused: a symbolic link, not a folder, another user's, writable
    /// by others, or a system error (ENOENT when `XDG_RUNTIME_DIR` names nothing).
    package typealias Problem = PrivateFiles.Problem

    /// The folder's name inside `XDG_RUNTIME_DIR`.
    package static let name = "photometa"

    /// `XDG_RUNTIME_DIR` as given.
    package let base: String
    /// `base + "/photometa"`.
    package let path: String

    /// The folder inside `base` (an absolute path; a trailing slash is dropped).
    package init(base: String) {
        var base = base
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        self.base = base
        path = (base == "/" ? "" : base) + "/" + RuntimeFolder.name
    }

    /// The runtime folder named by `environment` (the process's, or a test's), or why there is
    /// none. Nothing is checked or created yet (`prepare`, `check`).
    package static func locate(environment: [String: String]) -> Result<RuntimeFolder, Unavailable> {
        guard let value = environment["XDG_RUNTIME_DIR"], !value.isEmpty else { return .failure(.unset) }
        guard value.hasPrefix("/") else { return .failure(.notAbsolute(value)) }
        return .success(RuntimeFolder(base: value))
    }

    /// The path of `name` inside the folder (the service's lock and socket).
    package func file(_ name: String) -> String { path + "/" + name }

    /// For the service: checks the base, creates the folder (0700) when it is missing, and
    /// checks it. Throws the `Problem` that refuses it; the base is never created (a missing
    /// `XDG_RUNTIME_DIR` is `.system` with ENOENT).
    package func prepare() throws(Problem) {
        try PrivateFiles.checkFolder(base)
        do throws(SystemError) {
            try SystemCalls.makeFolder(path, mode: 0o700)
        } catch {
            guard error.errno == EEXIST else { throw .system(path: path, error: error) }
        }
        try PrivateFiles.checkFolder(path)
    }

    /// For a client: checks the base and the folder without creating anything. A missing folder
    /// is `.system` with ENOENT (no service has run since login).
    package func check() throws(Problem) {
        try PrivateFiles.checkFolder(base)
        try PrivateFiles.checkFolder(path)
    }
}
