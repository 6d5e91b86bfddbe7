@testable import Daemon
import DisplayCore
import DisplayDoubles
import GPSD
import Geo
import Location
import Loop
import Positioning
import Raster
import Syscall

/// An in-memory display with every capability a panel may have: a canvas of its own, presents
/// counted, hot-plug, blanking, a record of what each frame shows, failures on request.
final class MemoryDisplay: TestDisplay, DisplayHotplug, DisplayBlanking, FrameRecorder {
    typealias Failure = DisplayFailure

    private(set) var presents = 0
    private(set) var stamps: [FrameStamp] = []
    private(set) var damages: [Rect] = []
    private(set) var started = false
    private(set) var closed = false
    /// The next present throws this (an unplugged panel, another master).
    var failNextPresent: Failure?
    /// Extra frames asked for its record (SIGUSR1), as PNG output keeps them.
    private(set) var recordRequests = 0
    /// While set, frames are handed over but never reach the screen (a panel that stopped
    /// completing flips); each present otherwise completes at once, waited for `waitPerFrame`.
    var holdFlips = false
    var waitPerFrame: Int64 = 0
    /// Runs inside each present (a test spends virtual time there: work the loop measures).
    var onPresent: (() -> Void)?

    init(width: Int = 320, height: Int = 240) {
        super.init(name: "memory \(width)x\(height)", width: width, height: height)
    }

    override func start() { started = true }
    override func close() { closed = true }
    override var hotplug: (any DisplayHotplug)? { self }
    override var blanking: (any DisplayBlanking)? { self }
    override var recorder: (any FrameRecorder)? { self }
    /// What `blank()` answers; the edges are recorded with the test's clock by the harness.
    var blankOutcome = BlankOutcome.poweredDown
    /// As a KMS card names itself for uevents.
    let hotplugDevice = "/dev/dri/card0"
    /// What the next connector check finds.
    var connector = ConnectorCheck.connected
    private(set) var connectorChecks = 0
    func recheckConnector() -> ConnectorCheck {
        connectorChecks += 1
        return connector
    }
    private(set) var blankCalls = 0
    private(set) var unblankCalls = 0
    private(set) var blanked = false
    /// Presents while blanked: the daemon must make none.
    private(set) var presentsWhileBlanked = 0
    func blank() -> BlankOutcome {
        blankCalls += 1
        blanked = true
        return blankOutcome
    }
    func unblank() {
        unblankCalls += 1
        blanked = false
    }

    /// What the frame presented next shows, as the loop says it.
    private var stamped: FrameStamp?

    func stamp(_ frame: FrameStamp) { stamped = frame }

    override func present(damage: DamageRegion) throws(DisplayFailure) {
        if let failure = failNextPresent {
            failNextPresent = nil
            throw failure
        }
        presents += 1
        if blanked { presentsWhileBlanked += 1 }
        if let stamped { stamps.append(stamped) }
        stamped = nil
        damages.append(damage.bounds)
        onPresent?()
        if !holdFlips {
            presentation.presented += 1
            presentation.add(waited: waitPerFrame)
        }
    }

    func recordNextFrame() { recordRequests += 1 }
}

/// An in-memory position source: the test hands it fixes; it counts what the loop asked of it.
final class ScriptedSource: PositionSource {
    let name: String
    let staleAfter: Double
    private let emit: (FeedEvent) -> Void
    private(set) var started = 0
    private(set) var stopped = 0
    var reconnectCount = 0
    var skippedCount = 0
    var satellitesUsed: Int?
    var gpsdHealth: GPSDHealth?

    init(name: String = "scripted", staleAfter: Double, emit: @escaping (FeedEvent) -> Void) {
        self.name = name
        self.staleAfter = staleAfter
        self.emit = emit
    }

    func start(now: MonotonicInstant) { started += 1 }
    func stop() { stopped += 1 }
    var reconnects: Int { reconnectCount }
    var skippedLines: Int { skippedCount }

    /// `utc`: the receiver's time of fix, seconds since the epoch; nil: none given.
    func deliver(latitude: Double = 45.5, longitude: Double = -73.6, error: Double = 5, utc: Int64? = nil, at now: MonotonicInstant) {
        var fix = Fix(latitude: latitude, longitude: longitude, mode: .threeD, horizontalError: error, receivedAt: now)
        fix.time = utc.map { FixTime(secondsSinceEpoch: $0) }
        emit(.fix(fix))
    }

    func say(_ text: String) { emit(.log(.warning, text, topic: "scripted")) }
}

/// Uevents on cue: the test queues them, the loop takes them when the virtual wait says they came.
final class ScriptedHotplug: HotplugEvents {
    private var queued: [UeventSocket.Received] = []
    /// Never polled: VirtualWaiting reports readiness itself.
    var descriptor: Int32 { 1_000 }

    func queue(_ received: UeventSocket.Received) { queued.append(received) }

    func take() -> [UeventSocket.Received] {
        defer { queued = [] }
        return queued
    }
}
