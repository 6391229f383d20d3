import Foundation
import PhotoMetaSystem
import Synchronization

/// The one-line progress display of long runs, on stderr and only when stderr is a terminal
/// (never in a pipe or a log): files done, files per second, and an estimate once the total is
/// known. Redrawn at most ten times a second, first after half a second (a quick run shows
/// nothing), cleared before every message on stderr and at the end.
final class ProgressLine: Sendable {
    private struct State {
        var done = 0
        var total: Int?
        var noun = "files"
        var shown = false
    }
    private let state = Mutex(State())
    private let start = Date()
    nonisolated(unsafe) private let timer: DispatchSourceTimer

    /// The active display, if any (at most one per process).
    nonisolated(unsafe) private(set) static var current: ProgressLine?

    /// Starts a display unless `quiet` or stderr is not a terminal; nil then.
    static func start(quiet: Bool, noun: String = "files") -> ProgressLine? {
        guard !quiet, Terminal.isTerminal(2), ProcessEnvironment.current["TERM"] != "dumb" else { return nil }
        let p = ProgressLine(noun: noun)
        current = p
        return p
    }

    private init(noun: String) {
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        state.withLock { $0.noun = noun }
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
    }

    /// Files (or folders...) done so far.
    func set(done: Int) { state.withLock { $0.done = done } }
    /// One more done.
    func increment() { state.withLock { $0.done += 1 } }
    /// The total, once known.
    func set(total: Int) { state.withLock { $0.total = total } }

    /// The text of the line now.
    private func text() -> String {
        let (done, total, noun) = state.withLock { ($0.done, $0.total, $0.noun) }
        let elapsed = max(0.001, Date().timeIntervalSince(start))
        let rate = Double(done) / elapsed
        var line = "photometa: \(done)"
        if let total, total > 0 {
            line += " of \(total) \(noun) (\(min(100, done * 100 / total)) %)"
        } else {
            line += " \(noun)"
        }
        line += ", \(Int(rate.rounded())) \(noun)/s"
        if let total, rate > 0, total > done {
            line += ", about \(Int((Double(total - done) / rate).rounded(.up))) s left"
        }
        return line
    }

    private func draw() {
        let line = text()
        state.withLock { $0.shown = true }
        Output.status(line)
    }

    /// Clears the line for good.
    func finish() {
        timer.cancel()
        if state.withLock({ $0.shown }) { Output.status(nil) }
        ProgressLine.current = nil
    }
}
