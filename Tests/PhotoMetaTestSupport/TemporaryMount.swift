import Foundation

/// A tmpfs mounted over a test's folder, for what only a mount shows (an unmounted folder).
/// Needs the right to mount (root); `tmpfs` says whether it could.
package enum TemporaryMount {
    /// Mounts a 1 MiB tmpfs at `path` (`readOnly`: mounted read-only, a place no one may
    /// write, root included); false when it cannot (not root, no mount(8)).
    package static func tmpfs(at path: String, readOnly: Bool = false) -> Bool {
        run(["/bin/mount", "-t", "tmpfs", "-o", readOnly ? "ro,size=1m" : "size=1m", "tmpfs", path])
    }

    /// Mounts the tmpfs at `path` again, read-only or writable: its files stay, and no one may
    /// write them while it is read-only.
    package static func remount(_ path: String, readOnly: Bool) -> Bool {
        run(["/bin/mount", "-o", readOnly ? "remount,ro" : "remount,rw", path])
    }

    /// Mounts the folder `source` at `path` too (`mount --bind`); false when it cannot.
    package static func bind(_ source: String, at path: String) -> Bool {
        run(["/bin/mount", "--bind", source, path])
    }

    /// Unmounts `path`; a second call, or one on a folder not mounted, does nothing.
    package static func unmount(_ path: String) {
        _ = run(["/bin/umount", path])
    }

    private static func run(_ argv: [String]) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: argv[0]) else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}
