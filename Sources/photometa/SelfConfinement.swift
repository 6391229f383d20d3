import Foundation
import PhotoMeta
import PhotoMetaCore
import PhotoMetaSystem

/// photometa's own confinement in the commands that parse untrusted files (`inspect`,
/// `suggest`, `recent`, `watch`, `serve`; docs/sandbox.md): called first thing in the command's
/// run, on the one thread the process has then. It reads what it likes (the library, links out
/// of it, the time zones), but writes only beneath the folders of its state and index files
/// and of its runtime folder (`serve`), opens no socket but unix ones (the live library's),
/// and executes nothing: the thumbnail helper and the `watch --exec` hook are started by the
/// spawner it forks just before (Spawner.swift), which runs only those two.
enum SelfConfinement {
    /// What the command still needs once confined.
    struct Needs {
        /// Files (state, index) whose folders it writes: made now, so a rule can hold to them.
        var files: [String?] = []
        /// The runtime folder `serve` announces itself in (written, a socket bound in it).
        var runtime: String?
        /// It talks to a live library or to the spawner (AF_UNIX sockets).
        var unixSockets = false
        /// It runs the thumbnail helper (`--thumbnail`).
        var thumbnails = false
        /// The `watch --exec` command.
        var hook: String?

        /// suggest and recent: their files, a live library to ask, maybe thumbnails.
        static func scanning(_ files: [String?], thumbnails: Bool) -> Needs {
            Needs(files: files, unixSockets: true, thumbnails: thumbnails)
        }
    }

    /// Confines this process for `needs`; a missing confinement is said once on stderr.
    @discardableResult
    static func apply(_ needs: Needs) -> Confinement {
        let environment = ProcessEnvironment.current
        #if DEBUG
            // Test builds: PHOTOMETA_SANDBOX_OFF=1 runs unconfined (a test compares the two).
            if environment["PHOTOMETA_SANDBOX_OFF"] == "1" { return Confinement() }
        #endif
        var policy = SandboxPolicy()
        policy.read = ["/"]
        for file in needs.files.compactMap({ $0 }) {
            let folder = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? "."
            let absolute = folder.hasPrefix("/") ? folder : (FileSystem.currentFolder() ?? ".") + "/" + folder
            if (try? PrivateFiles.ensureFolder(absolute)) != nil { policy.write.append(absolute) }
        }
        if let runtime = needs.runtime {
            policy.write.append(runtime)
            policy.makeSocket.append(runtime)
        }
        policy.unixSockets = needs.unixSockets || needs.thumbnails || needs.hook != nil
        let helper = needs.thumbnails ? try? ThumbnailerProcess.helper().get() : nil
        var notes: [String] = []
        if helper != nil || needs.hook != nil {
            do throws(SystemError) {
                try Spawner.start(helper: helper, hook: needs.hook)
            } catch {
                notes.append("the spawner could not start (\(error)): helpers and hooks will not run")
            }
        }
        var c = Sandbox.confine(policy, environment: environment)
        c.notes = notes + c.notes
        if !c.notes.isEmpty { Output.err("photometa: note: " + c.notes.joined(separator: "; ")) }
        probeIfAsked(environment)
        return c
    }

    /// Test builds: the probe of docs/sandbox.md on stderr (`photometa: probe: open=0
    /// create=13 ...`); with `PHOTOMETA_SANDBOX_PROBE_HOLD=1` it then waits until the reader of
    /// stdout has gone (the test reads /proc/PID/status meanwhile).
    static func probeIfAsked(_ environment: [String: String]) {
        #if DEBUG
            guard let secret = environment["PHOTOMETA_SANDBOX_PROBE"], !secret.isEmpty else { return }
            Output.err(
                "photometa: " + SandboxProbe.line(SandboxProbe.run(secret: secret)).replacingOccurrences(of: "\t", with: " "))
            Output.flush()
            if environment["PHOTOMETA_SANDBOX_PROBE_HOLD"] == "1" { SandboxProbe.waitForReaderToLeave(1) }
        #endif
    }
}
