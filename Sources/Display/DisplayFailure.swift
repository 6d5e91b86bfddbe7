import Raster

/// A display's error as one concrete type: what a caller holding any display catches. It keeps
/// the display's own line and recovery, so the log and the retry decision are the same as if
/// the display's error had been caught directly.
public struct DisplayFailure: DisplayError {
    public let description: String
    public let recovery: Recovery

    public init(description: String, recovery: Recovery) {
        self.description = description
        self.recovery = recovery
    }

    public init<E: DisplayError>(_ error: E) {
        self.init(description: error.description, recovery: error.recovery)
    }
}

extension Display where Thrown: DisplayError {
    public func checkedStart() throws(DisplayFailure) {
        do { try start() } catch { throw DisplayFailure(error) }
    }
    public func checkedPresent(damage: Rect, frame: FrameStamp) throws(DisplayFailure) {
        do { try present(damage: damage, frame: frame) } catch { throw DisplayFailure(error) }
    }
    public func checkedHandleEvents() throws(DisplayFailure) {
        do { try handleEvents() } catch { throw DisplayFailure(error) }
    }
    public func checkedRecheckConnector() throws(DisplayFailure) -> ConnectorCheck {
        do { return try recheckConnector() } catch { throw DisplayFailure(error) }
    }
    public func checkedBlank() throws(DisplayFailure) -> BlankOutcome {
        do { return try blank() } catch { throw DisplayFailure(error) }
    }
    public func checkedUnblank() throws(DisplayFailure) {
        do { try unblank() } catch { throw DisplayFailure(error) }
    }
}

#if !hasFeature(Embedded)
/// Displays whose calls throw untyped errors (test doubles): the recovery is found by a dynamic
/// cast, which only the hosted build has.
extension Display {
    private func failure(_ error: any Error) -> DisplayFailure {
        DisplayFailure(description: "\(error)", recovery: Recovery.of(error))
    }
    public func checkedStart() throws(DisplayFailure) {
        do { try start() } catch { throw failure(error) }
    }
    public func checkedPresent(damage: Rect, frame: FrameStamp) throws(DisplayFailure) {
        do { try present(damage: damage, frame: frame) } catch { throw failure(error) }
    }
    public func checkedHandleEvents() throws(DisplayFailure) {
        do { try handleEvents() } catch { throw failure(error) }
    }
    public func checkedRecheckConnector() throws(DisplayFailure) -> ConnectorCheck {
        do { return try recheckConnector() } catch { throw failure(error) }
    }
    public func checkedBlank() throws(DisplayFailure) -> BlankOutcome {
        do { return try blank() } catch { throw failure(error) }
    }
    public func checkedUnblank() throws(DisplayFailure) {
        do { try unblank() } catch { throw failure(error) }
    }
}
#endif
