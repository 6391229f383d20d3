import Foundation
import XCTest

@testable import PhotoMeta

/// `LookSchedule`: a look once events are quiet for the debounce, but never later than
/// `longestDelay` after the first of them, nor after `mostEvents` of them.
final class LookScheduleTests: XCTestCase {
    func testQuietEventsAreDebounced() {
        var s = LookSchedule(debounce: 0.015)
        XCTAssertNil(s.due, "nothing happened")
        s.event(at: 100)
        s.event(at: 100.01)
        XCTAssertEqual(s.due ?? 0, 100.025, accuracy: 1e-9)
        XCTAssertFalse(s.isDue(at: 100.02))
        XCTAssertTrue(s.isDue(at: 100.025))
        s.looked()
        XCTAssertNil(s.due)
        XCTAssertFalse(s.dirty)
    }

    /// Events every 5 ms without end: the look comes `longestDelay` after the first of them.
    func testAWriterThatNeverPausesDoesNotPutTheLookOff() {
        var s = LookSchedule(debounce: 0.015)
        var t = 100.0
        var lookedAt: [Double] = []
        while t < 101 {
            s.event(at: t)
            if s.isDue(at: t) {
                lookedAt.append(t)
                s.looked()
            }
            t += 0.005
        }
        XCTAssertEqual(lookedAt.count, 3, "\(lookedAt)")
        XCTAssertEqual(lookedAt.first ?? 0, 100.25, accuracy: 0.006)
    }

    func testAFloodOfEventsIsLookedAtOnceTooMany() {
        var s = LookSchedule(debounce: 0.015)
        for _ in 0..<(LookSchedule.mostEvents - 1) { s.event(at: 100) }
        XCTAssertFalse(s.isDue(at: 100))
        s.event(at: 100)
        XCTAssertTrue(s.isDue(at: 100))
    }

    /// A debounce longer than the delay asked for (an app's setting) is kept for a single
    /// event: the cap is the longer of the two.
    func testALongDebounceIsNotCutShort() {
        var s = LookSchedule(debounce: 1)
        s.event(at: 100)
        XCTAssertFalse(s.isDue(at: 100.5))
        XCTAssertTrue(s.isDue(at: 101))
    }

    func testALookAskedForIsDueAtOnce() {
        var s = LookSchedule(debounce: 0.015)
        s.lookNow()
        XCTAssertTrue(s.dirty)
        XCTAssertTrue(s.isDue(at: 1))
    }
}

extension DirectoryWatcherTests {
    /// A file written every 2 ms for as long as the test runs (a download, a log): the photo
    /// that lands meanwhile is still reported; before `LookSchedule.longestDelay` the
    /// debounce put the look off until the writer paused, which it never did.
    func testAWriterThatNeverPausesHoldsBackNoReport() throws {
        try start()
        let stop = StopFlag()
        let log = path("download.log")
        XCTAssertTrue(FileManager.default.createFile(atPath: log, contents: nil))
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: log))
        let underWay = DispatchSemaphore(value: 0)
        let writer = Thread {
            var writes = 0
            while !stop.isSet {
                h.write(Data(repeating: 0x41, count: 64))
                writes += 1
                if writes == 10 { underWay.signal() }
                // The writer's pace (the subject of the test), not a wait for the watcher.
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
        writer.start()
        defer {
            stop.set()
            while !writer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
            h.closeFile()
        }
        // The writer is under way (its writes are events) before the photo lands.
        XCTAssertEqual(underWay.wait(timeout: .now() + 10), .success)
        try write("IMG_20240101_120000.jpg")
        XCTAssertTrue(
            recorder.wait(timeout: 10) { recorder.inserted.contains(path("IMG_20240101_120000.jpg")) },
            "the photo was held back by the writer")
    }
}
