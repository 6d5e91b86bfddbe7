import Raster

/// An output whose own work throws an error of its own (`KMSError`, `FBDevError`): the display
/// seam's calls are given here, once, with that error carried as a `DisplayFailure`.
public protocol ScanoutOutput: Display {
    associatedtype OutputError: DisplayError
    func startScanout() throws(OutputError)
    func presentDamage(damage: DamageRegion) throws(OutputError)
    func readEvents() throws(OutputError)
}

extension ScanoutOutput {
    public func start() throws(DisplayFailure) {
        do { try startScanout() } catch { throw DisplayFailure(error) }
    }
    public func present(damage: DamageRegion) throws(DisplayFailure) {
        do { try presentDamage(damage: damage) } catch { throw DisplayFailure(error) }
    }
    public func handleEvents() throws(DisplayFailure) {
        do { try readEvents() } catch { throw DisplayFailure(error) }
    }
}

/// A scan-out output with a panel that night blanking switches off.
public protocol BlankingOutput: ScanoutOutput, DisplayBlanking {
    func switchOff() throws(OutputError) -> BlankOutcome
    func switchOn() throws(OutputError)
}

extension BlankingOutput {
    public func blank() throws(DisplayFailure) -> BlankOutcome {
        do { return try switchOff() } catch { throw DisplayFailure(error) }
    }
    public func unblank() throws(DisplayFailure) {
        do { try switchOn() } catch { throw DisplayFailure(error) }
    }
}

/// A scan-out output whose monitors come and go.
public protocol HotplugOutput: ScanoutOutput, DisplayHotplug {
    func checkConnector() throws(OutputError) -> ConnectorCheck
}

extension HotplugOutput {
    public func recheckConnector() throws(DisplayFailure) -> ConnectorCheck {
        do { return try checkConnector() } catch { throw DisplayFailure(error) }
    }
}
