import Foundation
import PhotoMetaCore
import PhotoMetaSystem
import PhotoMetaThumbnailCache

/// The helper's confinement (docs/sandbox.md), put on after libvips is loaded and the request
/// is read, before the first file is opened (FFmpeg is opened on the first video, from /usr):
/// a hostile HEIC that takes over a decoder can then read nothing but the files it was asked
/// about (and the system's libraries and data), write nothing but the thumbnails, and make no
/// network connection nor start any program.
enum HelperConfinement {
    /// The address space a batch may map: far above what a legitimate decode takes (a 48 MP
    /// HEIC decoded in full, about 1 GB, beside the runtime's reservations: thread stacks,
    /// malloc arenas), far below what a decoding bomb asks for. An allocation beyond it fails,
    /// which libvips reports as that file's error (GLib's g_malloc aborts the helper instead:
    /// `ThumbnailerProcess` then retries the rest and names the file).
    static let addressSpaceBytes: UInt64 = 8 << 30

    /// CPU seconds a batch may use: 30 s, and 5 s more per file (decoding a 12 MP HEIC takes
    /// about half a second). At the limit the kernel sends SIGXCPU and the helper ends; the
    /// file it was on gets the error and the others are thumbnailed again (`ThumbnailerProcess`).
    static func cpuSeconds(files: Int) -> UInt64 { 30 + 5 * UInt64(max(0, files)) }

    /// What the helper may touch for `job` on `files`: read the files, write the `--out` folder
    /// and the cache's folder (made first, so the rule has a folder to hold to).
    static func policy(files: [String], job: ThumbnailJob, cacheRoot: String?, environment: [String: String])
        -> SandboxPolicy
    {
        var p = SandboxPolicy()
        p.inputs = files
        if let out = job.out { p.write.append(out) }
        if job.cache, let root = cacheRoot, (try? PrivateFiles.ensureFolder(root)) != nil { p.write.append(root) }
        p.addressSpaceBytes = addressSpaceBytes
        p.cpuSeconds = cpuSeconds(files: files.count)
        #if DEBUG
            // Test builds: `PHOTOMETA_SANDBOX_LIMITS=cpu=1` tries the limits without a real bomb.
            for item in (environment["PHOTOMETA_SANDBOX_LIMITS"] ?? "").split(separator: ",") {
                let kv = item.split(separator: "=")
                guard kv.count == 2, let v = UInt64(kv[1]) else { continue }
                if kv[0] == "cpu" { p.cpuSeconds = v }
                if kv[0] == "as" { p.addressSpaceBytes = v }
            }
        #endif
        return p
    }

    /// Confines the helper and returns what is in force; the first missing confinement is said
    /// once on stderr (the rest still apply).
    static func confine(files: [String], job: ThumbnailJob, cacheRoot: String?) -> Confinement {
        let environment = ProcessEnvironment.current
        let c = Sandbox.confine(
            policy(files: files, job: job, cacheRoot: cacheRoot, environment: environment), environment: environment)
        if !c.notes.isEmpty {
            let text = "photometa-thumbnailer: note: " + c.notes.joined(separator: "; ") + "\n"
            FileDescriptorOutput.writeAll(2, Array(text.utf8))
        }
        return c
    }

    /// Test builds: the probe of docs/sandbox.md, when `PHOTOMETA_SANDBOX_PROBE` names a file
    /// outside the inputs; its line goes out before any file's. With
    /// `PHOTOMETA_SANDBOX_PROBE_HOLD=1` the helper then waits until its reader has looked at
    /// /proc/PID/status and closed the pipe.
    static func probeIfAsked(_ emit: (String) -> Void) {
        #if DEBUG
            let environment = ProcessEnvironment.current
            guard let secret = environment["PHOTOMETA_SANDBOX_PROBE"], !secret.isEmpty else { return }
            emit(SandboxProbe.line(SandboxProbe.run(secret: secret)))
            if environment["PHOTOMETA_SANDBOX_PROBE_HOLD"] == "1" { SandboxProbe.waitForReaderToLeave(1) }
        #endif
    }

    /// Test builds: spins when about to thumbnail a file whose name ends with
    /// `PHOTOMETA_SANDBOX_PROBE_SPIN` (the CPU limit's test).
    static func spinIfAsked(_ file: String) {
        #if DEBUG
            if let name = ProcessEnvironment.current["PHOTOMETA_SANDBOX_PROBE_SPIN"], !name.isEmpty,
                file.hasSuffix(name)
            {
                SandboxProbe.spin()
            }
        #endif
    }
}
