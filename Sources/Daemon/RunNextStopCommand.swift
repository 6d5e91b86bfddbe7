import Config
import Syscall
import Systemd
import Transit

/// `[transit] nextStopCommand`: an announcement system's hook, run whenever the next stop changes
/// (and once past the last stop, with empty stop fields), never waited for; the loop reaps it.
extension RunDaemon {
    func transitNextStopCommand() {
        guard let commandLine = settings.transit.nextStopCommand, let trip = transit.loaded?.trip else { return }
        let index = transit.nextStopIndex ?? -1
        guard transit.announced != index else { return }
        transit.announced = index
        let stop = index >= 0 && index < trip.stops.count ? trip.stops[index] : nil
        let variables: [(name: String, value: String)] = [
            ("PULSEDOT_TRIP_ID", trip.tripID),
            ("PULSEDOT_ROUTE", trip.route.shortName ?? trip.route.routeID),
            ("PULSEDOT_NEXT_STOP_ID", stop?.stopID ?? ""),
            ("PULSEDOT_NEXT_STOP_NAME", stop?.name ?? ""),
            ("PULSEDOT_NEXT_STOP_SEQUENCE", stop.map { String($0.sequence) } ?? ""),
        ]
        do {
            transit.commands.append(try ShellCommand.start(commandLine, variables: variables))
        } catch {
            commandFailed("\(error)")
        }
    }

    /// Says how a finished command ended when it failed (once, until one succeeds) and lets go
    /// of it. Looked at each turn while one runs.
    func transitReapCommands() {
        guard !transit.commands.isEmpty else { return }
        transit.commands.removeAll { command in
            guard let end = command.finished() else { return false }
            if end == "exited with status 0" { transit.commandFailed = false } else { commandFailed("'\(command.commandLine)' \(end)") }
            return true
        }
    }

    private func commandFailed(_ what: String) {
        if !transit.commandFailed { log.warning("transit: nextStopCommand: \(what); said once until it succeeds") }
        transit.commandFailed = true
    }
}
