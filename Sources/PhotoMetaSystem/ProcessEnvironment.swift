internal import CSpawn
import PhotoMetaCore

#if canImport(Glibc)
    import Glibc
#endif

/// The process's environment as photometa reads it: every name and value with its bytes kept
/// (`PathBytes`), so that a `HOME` or `XDG_STATE_HOME` that is not UTF-8 names its own folder.
/// Foundation's `ProcessInfo.environment` decodes the values as UTF-8 and makes a byte it cannot
/// read U+FFFD: the memory, the index and the cache then went to a folder of another name, and
/// the `--exec` hook was given the replaced bytes.
@usableFromInline package enum ProcessEnvironment {
    /// The variables now [environ(7)]; of a name given twice, the first, as getenv(3) reads it.
    @usableFromInline package static var current: [String: String] {
        var variables: [String: String] = [:]
        // NULL after clearenv(3), which a program embedding the library may call.
        guard var entry = pm_environment() else { return [:] }
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")), equals > 0 {
                let name = PathBytes.decode(bytes[..<equals])
                if variables[name] == nil { variables[name] = PathBytes.decode(bytes[(equals + 1)...]) }
            }
            entry += 1
        }
        return variables
    }
}
