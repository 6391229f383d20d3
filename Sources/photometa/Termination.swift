import Foundation
import PhotoMeta
import PhotoMetaSystem

/// SIGINT and SIGTERM for the commands that run until stopped (`watch`, `serve`): a flag the
/// loop checks, set by `TerminationSignals` (no dispatch source: an idle service wakes no
/// thread), so the command stops cleanly (exit 0) instead of dying. Cancel the registration
/// at the end.
enum Termination {
    static func stopFlag() -> (StopFlag, TerminationSignals.Registration) {
        let stop = StopFlag()
        return (stop, TerminationSignals.receive { stop.set() })
    }
}
