import DisplayCore
import DisplayDoubles
import Raster

/// The loop tests' display: presents counted with the stamp each frame carried, starting and closing seen,
/// the first present failed on request (an unplugged panel).
final class RecordingDisplay: TestDisplay, FrameRecorder {
    private(set) var presents = 0
    private(set) var stamps: [FrameStamp] = []
    private(set) var started = false
    private(set) var closed = false
    /// The next present throws this.
    var failNextPresent: DisplayFailure?
    private var stamped: FrameStamp?

    init() { super.init(name: "memory 32x24", width: 32, height: 24) }

    override func start() { started = true }
    override func close() { closed = true }
    override var recorder: (any FrameRecorder)? { self }
    func stamp(_ frame: FrameStamp) { stamped = frame }
    /// Snapshots asked for; the loop never asks on its own.
    private(set) var recordRequests = 0
    func recordNextFrame() { recordRequests += 1 }

    override func present(damage: DamageRegion) throws(DisplayFailure) {
        if let failure = failNextPresent {
            failNextPresent = nil
            throw failure
        }
        presents += 1
        if let stamped { stamps.append(stamped) }
    }
}
