/// The confinement a photometa process put itself under (docs/sandbox.md): which of
/// no_new_privs, Landlock, the seccomp deny list and the resource limits are in force, and a
/// note for each that is not. Made by `Sandbox.confine` (PhotoMetaSystem); printed by
/// `thumbnail --explain` and carried from `photometa-thumbnailer` to `photometa` as one protocol
/// line (`line`, `init?(line:)`), so a run without a confinement is never silent.
package struct Confinement: Sendable, Equatable {
    /// `PR_SET_NO_NEW_PRIVS`: nothing executed afterwards can gain privileges.
    package var noNewPrivileges = false
    /// The Landlock ABI the process is restricted with; nil when Landlock is not in force.
    package var landlockABI: Int?
    /// The seccomp deny list is installed on every thread.
    package var seccomp = false
    /// `RLIMIT_AS`, in bytes; nil for none.
    package var addressSpaceBytes: UInt64?
    /// `RLIMIT_CPU`, in seconds of CPU time; nil for none.
    package var cpuSeconds: UInt64?
    /// Why a confinement is missing or partial, one sentence each.
    package var notes: [String] = []

    package init() {}

    /// True when every confinement is in force.
    package var isComplete: Bool { noNewPrivileges && landlockABI != nil && seccomp }

    /// The helper protocol's line: `confinement <TAB> noNewPrivs=1 <TAB> landlock=7 <TAB>
    /// seccomp=1 <TAB> addressSpace=BYTES <TAB> cpu=SECONDS [<TAB> note=TEXT]...` (TabFields).
    package var line: String {
        var fields = [
            "confinement", "noNewPrivs=\(noNewPrivileges ? 1 : 0)", "landlock=\(landlockABI ?? 0)",
            "seccomp=\(seccomp ? 1 : 0)", "addressSpace=\(addressSpaceBytes ?? 0)", "cpu=\(cpuSeconds ?? 0)",
        ]
        fields += notes.map { "note=" + $0 }
        return TabFields.line(fields)
    }

    /// Reads a confinement line; nil when the line is not one.
    package init?(line: ArraySlice<UInt8>) {
        let fields = TabFields.fields(line)
        guard fields.first == "confinement" else { return nil }
        for field in fields.dropFirst() {
            guard let eq = field.firstIndex(of: "=") else { return nil }
            let value = String(field[field.index(after: eq)...])
            let number = UInt64(value) ?? 0
            switch field[..<eq] {
            case "noNewPrivs": noNewPrivileges = number == 1
            case "landlock": landlockABI = number > 0 ? Int(clamping: number) : nil
            case "seccomp": seccomp = number == 1
            case "addressSpace": addressSpaceBytes = number > 0 ? number : nil
            case "cpu": cpuSeconds = number > 0 ? number : nil
            case "note": notes.append(value)
            default: continue  // a newer helper's field
            }
        }
    }

    /// One line for people: `no_new_privs, Landlock (ABI 7), seccomp deny list, address space
    /// 8 GiB, CPU 35 s`, then the notes.
    package var summary: String {
        var parts: [String] = []
        if noNewPrivileges { parts.append("no_new_privs") }
        if let abi = landlockABI { parts.append("Landlock (ABI \(abi))") }
        if seccomp { parts.append("seccomp deny list") }
        if let bytes = addressSpaceBytes { parts.append("address space \(Self.size(bytes))") }
        if let seconds = cpuSeconds { parts.append("CPU \(seconds) s") }
        var text = parts.isEmpty ? "none" : parts.joined(separator: ", ")
        for note in notes { text += "; " + note }
        return text
    }

    static func size(_ bytes: UInt64) -> String {
        bytes % (1 << 30) == 0 ? "\(bytes >> 30) GiB" : "\(bytes >> 20) MiB"
    }

    /// The JSON object `{"noNewPrivs", "landlock", "seccomp", "addressSpace", "cpuSeconds",
    /// "notes"}` (`landlock` is the ABI or null; the limits are null when not set).
    package func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("noNewPrivs", noNewPrivileges)
        w.field("landlock", landlockABI)
        w.field("seccomp", seccomp)
        w.field("addressSpace", addressSpaceBytes.map { Int(clamping: $0) })
        w.field("cpuSeconds", cpuSeconds.map { Int(clamping: $0) })
        w.key("notes")
        w.beginArray()
        for note in notes { w.string(note) }
        w.endArray()
        w.endObject()
    }
}
