/// What a display knows about frames that really reached the screen, as opposed to frames handed
/// to it: a page flip counts when its completion event arrives, DirtyFB and pans when the call
/// succeeds, a file when it is written. Operators alert on this, so a panel that stopped taking
/// flips shows as a panel that stopped drawing. Plain integers, updated without allocating.
public struct PresentationCount: Sendable, Equatable {
    /// Frames confirmed on the screen (or in the file, for PNG output).
    public var presented: UInt64 = 0
    /// Time spent waiting for the display to take frames (a flip's completion, a vertical blank),
    /// summed over the run: what the loop's frame time leaves out.
    public var waitedNanoseconds: Int64 = 0

    public init(presented: UInt64 = 0, waitedNanoseconds: Int64 = 0) {
        self.presented = presented
        self.waitedNanoseconds = waitedNanoseconds
    }

    public mutating func add(waited nanoseconds: Int64) {
        waitedNanoseconds &+= max(nanoseconds, 0)
    }
}
