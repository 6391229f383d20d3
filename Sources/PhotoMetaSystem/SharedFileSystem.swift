internal import CStatx
import PhotoMetaCore

/// Whether a folder lies on a file system that other computers change: inotify reports only
/// what this machine's kernel does, so a photo a phone uploads to a NAS mounted over NFS or SMB
/// never raises an event here. The watcher looks at such a tree again now and then
/// (`DirectoryWatcher.Options.rescanInterval`).
package enum SharedFileSystem {
    /// The file system's name when `path` lies on one that other computers may change: network
    /// file systems, FUSE mounts that are not a local disk (sshfs, rclone, GNOME's gvfs), a
    /// virtual machine's shared folders. nil for a local one, or when it cannot be told.
    /// [statfs(2) `f_type`; the magic numbers of linux/magic.h and the file systems' sources]
    package static func name(of path: String) -> String? {
        var type: UInt64 = 0
        var st = pm_file_stat()
        let ok = PathBytes.withCPath(path) { pm_statfs_type($0, &type) == 0 && pm_statx($0, 0, &st) == 0 }
        return ok ? name(type: type, device: st.device) : nil
    }

    /// The name for a file system of magic `type` holding a file of device `device`. A FUSE
    /// file system on a block device (`fuseblk`: ntfs-3g, exFAT on a USB disk) has a real
    /// device number, with a major number; one served by a program has an anonymous one
    /// (major 0): only that one can be changed behind the kernel's back.
    package static func name(type: UInt64, device: UInt64) -> String? {
        if type == fuse {
            // glibc's gnu_dev_major: bits 8-19, and 44-63 of the 64-bit dev_t.
            let major = (device >> 8) & 0xFFF | (device >> 32) & ~UInt64(0xFFF)
            return major == 0 ? "FUSE" : nil
        }
        return shared[type]
    }

    /// True for a shared file system whose folders' modification times follow every name added,
    /// removed or renamed in them, whoever made the change: the server keeps them, as POSIX
    /// asks of a folder whose entries change [POSIX.1-2017 open(), rename(), unlink()
    /// "mark for update the last data modification ... timestamps of the parent directory"],
    /// and the client sees them (NFS within its folder attribute cache's 30-60 s, acdirmin and acdirmax). A rescan there can
    /// look at folders first (`RescanSchedule`). Not FUSE (the program decides: rclone's cloud
    /// remotes and gvfs's phones keep no such times), nor VirtualBox's and Parallels' shared
    /// folders, nor NCP.
    package static func foldersFollowChanges(_ name: String) -> Bool {
        !["FUSE", "VirtualBox shared folder", "Parallels shared folder", "NCP"].contains(name)
    }

    static let fuse: UInt64 = 0x6573_5546

    static let shared: [UInt64: String] = [
        0x6969: "NFS", 0x517B: "SMB", 0xFF53_4D42: "CIFS", 0xFE53_4D42: "SMB2", 0x0102_1997: "9P",
        0x00C3_6400: "Ceph", 0x6B41_4653: "AFS", 0x5346_414F: "OpenAFS", 0x7375_7245: "Coda", 0x564C: "NCP",
        0x0BD0_0BD0: "Lustre", 0x0116_1970: "GFS2", 0x7461_636F: "OCFS2", 0x786F_4256: "VirtualBox shared folder",
        0x6A65_6A63: "virtiofs", 0x7C7C_6673: "Parallels shared folder",
    ]
}
