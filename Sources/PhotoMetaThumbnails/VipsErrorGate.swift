import PhotoMetaSystem
import Synchronization

/// Makes a failed libvips call's message its own.
///
/// libvips keeps one error buffer per process (`vips_error`), and the helper runs a call per
/// core: a call that fails while another runs takes the other's text with its own (two broken
/// HEICs at once: "a.heic: bad seek …; b.heic: bad seek …" for each), or finds the buffer
/// already taken and gives no reason at all. The result codes were always right; the text
/// could name the wrong file.
///
/// Calls run side by side under the shared side of a lock. A call that failed while it ran
/// alone (none running when it started, none started before it ended) has only its own text.
/// One that failed beside another is run again under the exclusive side, with the buffer
/// emptied first: nothing else writes there meanwhile, so its message is its own. A decoder
/// fails the same way twice (a file that changed in between gets the second answer, the newer
/// one). Failures are rare and most fail at the header, so the second run costs little;
/// successes never pay it.
final class VipsErrorGate: Sendable {
    private let lock = SharedExclusiveLock()
    /// Low 32 bits: calls between their start and their end; high 32 bits: calls ever started.
    /// One atomic, so that every start and end falls in one order: a call that began before
    /// another's start shows in the running count, one that began after, in the started count.
    private let calls = Atomic<UInt64>(0)
    private let clear: @Sendable () -> Void

    /// `clear` empties the shared error buffer.
    init(clear: @escaping @Sendable () -> Void) { self.clear = clear }

    /// Runs `call` (which returns a `PM_*` code, 0 for success, and leaves its message where
    /// it keeps it), again alone when it failed beside another call.
    func run(_ call: () -> Int32) -> Int32 {
        let (rc, alone) = lock.shared {
            let begun = calls.wrappingAdd(1 << 32 | 1, ordering: .sequentiallyConsistent).newValue
            let rc = call()
            // Its text was taken when `call` returned: a call that starts from here on is not
            // mixed in.
            let latest = calls.load(ordering: .sequentiallyConsistent)
            calls.wrappingSubtract(1, ordering: .sequentiallyConsistent)
            return (rc, begun & 0xFFFF_FFFF == 1 && latest >> 32 == begun >> 32)
        }
        guard rc != 0, !alone else { return rc }
        return lock.exclusive {
            clear()
            return call()
        }
    }
}
