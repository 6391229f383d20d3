import Foundation
import XCTest

@testable import PhotoMetaSystem

/// `ChildProcess`: the environment a program is started with.
final class ChildProcessTests: XCTestCase {
    /// Everything the child wrote to its stdout, once it has ended.
    private func output(of child: ChildProcess) -> String {
        child.finishInput([])
        var bytes: [UInt8] = []
        while case let chunk = child.readOutput(), !chunk.isEmpty { bytes += chunk }
        _ = child.wait()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The thumbnail helper gets glibc's huge-page tunable first in GLIBC_TUNABLES
    /// (`pm_helper_environment`); another program gets photometa's environment as it is.
    func testTheHelpersEnvironmentAddsTheHugePageTunable() throws {
        let printenv = "/usr/bin/printenv"
        guard FileManager.default.isExecutableFile(atPath: printenv) else { throw XCTSkip("coreutils printenv is missing") }
        let own = ProcessInfo.processInfo.environment["GLIBC_TUNABLES"]
        let helper = output(of: try ChildProcess(executable: printenv, arguments: ["GLIBC_TUNABLES"], helper: true))
        XCTAssertEqual(helper, "glibc.malloc.hugetlb=1" + (own.map { ":" + $0 } ?? "") + "\n")
        let other = output(of: try ChildProcess(executable: printenv, arguments: ["GLIBC_TUNABLES"]))
        XCTAssertEqual(other, own.map { $0 + "\n" } ?? "")
        let home = output(of: try ChildProcess(executable: printenv, arguments: ["HOME"], helper: true))
        XCTAssertEqual(home, ProcessInfo.processInfo.environment["HOME"].map { $0 + "\n" } ?? "", "the rest is kept")
    }
}
