import Foundation
import XCTest

/// The systemd user unit `make install` puts in `lib/systemd/user/` passes `systemd-analyze
/// verify` where the tool exists (issue 20). Installed with an empty DESTDIR into a temporary
/// PREFIX, so that the unit's ExecStart names a binary that is there.
final class ServiceUnitTests: XCTestCase {
    func run(_ exe: String, _ args: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        try Program.run(exe, args, environment: environment)
    }

    func testTheInstalledUnitVerifies() throws {
        let analyze = "/usr/bin/systemd-analyze"
        guard FileManager.default.isExecutableFile(atPath: analyze) else { throw XCTSkip("systemd-analyze is not installed") }
        // Documentation=man:photometa(1) is checked by running man.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else { throw XCTSkip("man is not installed") }
        let scratch = try TemporaryDirectory(prefix: "pm-unit")
        let prefix = scratch.path + "/prefix"
        let make = ["-C", Photometa.root.path, "--no-print-directory", "DESTDIR=", "PREFIX=" + prefix]
        let (status, log) = try run("/usr/bin/make", make + ["install-files", "INSTALL_BIN=" + Photometa.binary.path])
        XCTAssertEqual(status, 0, log)
        let unit = prefix + "/lib/systemd/user/photometa.service"
        XCTAssertTrue(try String(contentsOfFile: unit, encoding: .utf8).contains("\nExecStart=\(prefix)/bin/photometa serve\n"))
        // --user needs a runtime folder of its own.
        let runtime = scratch.path + "/runtime"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let (verified, output) = try run(
            analyze, ["verify", "--user", unit], environment: ["XDG_RUNTIME_DIR": runtime, "MANPATH": prefix + "/share/man"])
        XCTAssertEqual(verified, 0, output)
        XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines), "", output)
    }
}
