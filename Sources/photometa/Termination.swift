import Foundation
import PhotoMeta
import PhotoMetaSystem

/// SIGINT and SIGTERM for the commands that run until stopped (`watch`, `serve`): a flag the
/// loop checks, set from a dispatch source, so the command stops cleanly (exit 0) instead of
/// dying. Keep the sources for as long as the command runs; cancel them at the end.
enum Termination {
    static func stopFlag() -> (StopFlag, [DispatchSourceSignal]) {
        let stop = StopFlag()
        let sources = Signals.takeOverTermination().map { sig -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stop.set() }
            source.resume()
            return source
        }
        return (stop, sources)
    }
}
