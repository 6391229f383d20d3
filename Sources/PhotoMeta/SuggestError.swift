import Foundation
import PhotoMetaStore
import PhotoMetaSystem

/// Why `suggest`, `dismiss`, `forget` or `watch` could not run.
public enum SuggestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The folder cannot be listed: missing, not a folder (`ENOTDIR`), or no permission
    /// (`error.isPermissionDenied`), the analogue of a denied photo-library permission.
    case unreadableFolder(path: String, error: SystemError)
    /// The state file (the memory) cannot be used; it was left untouched.
    case state(StateFileError)

    /// The message for people.
    public var description: String {
        switch self {
        case .unreadableFolder(let path, let e):
            return "cannot read \(path): \(e.errno == ENOTDIR ? "not a folder" : e.description)"
        case .state(let s): return s.description
        }
    }
}
