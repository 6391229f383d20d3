/// The time the use cases read, passed in rather than read from the system: the product runs
/// on `SystemClock` (PhotoMetaSystem); tests run on a clock they move themselves, so a rule
/// about "one second later" is tested without waiting a second.
package protocol WallClock: Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    func now() -> Double
    /// Lets `seconds` pass (a real clock sleeps; a test clock moves forward).
    func sleep(seconds: Double)
}
