import Foundation
import PhotoMetaCore

/// The real clock: `WallClock` for the product. The one place the use cases' time comes from.
package struct SystemClock: WallClock {
    package init() {}

    package func now() -> Double { Date().timeIntervalSince1970 }

    package func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        Thread.sleep(forTimeInterval: seconds)
    }
}
