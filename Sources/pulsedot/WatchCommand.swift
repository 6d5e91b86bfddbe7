import Config
import GPSD
import Glibc
import Location
import Syscall

// `pulsedot watch`: the gpsd client on its own, printing each accepted fix as one normalised JSON
// line (like `gpspipe -w`, but only positions and always the same keys). State changes go to
// stderr. It runs the same poll-driven client the daemon runs, so it is also how to try a gpsd by hand.

let watchUsage = Usage(command: "watch", summary: "print each fix gpsd reports as one JSON line", options: [
    .valued("gpsd", "HOST:PORT", "gpsd's address: HOST:PORT, HOST or [IPv6]:PORT (default: the configuration's [source] gpsd, else 127.0.0.1:2947)"),
    .valued("gps-device", "PATH", "watch only this receiver (default: the configuration's [source] gpsDevice, else all)"),
    .valued("count", "N", "exit 0 after N fixes (default: run until interrupted)"),
    .valued("timeout", "S", "give up when gpsd cannot be reached within S seconds (default 10; 0 = never)"),
    .config,
    .set,
], notes: """
    It reads the service's configuration (--config, its drop-ins, --set) for the gpsd and the
    receiver the service would watch; --gpsd and --gps-device override them. A configuration whose
    source is not gpsd leaves 127.0.0.1:2947, and says so.
    Each fix is one line on stdout, always the keys lat, lon, mode, eph, track, speed, time, device
    and status (null for what gpsd did not say); connection changes go to stderr.
    """)

func watchCommand(_ parsed: Arguments) -> Int32 {
    let configuration: GPSDClient.Configuration
    let count: Int
    let timeout: Double
    do throws(Arguments.Failure) {
        guard parsed.positional.isEmpty else {
            throw Arguments.Failure(description: "watch takes no arguments, got '\(parsed.positional[0])'")
        }
        let source = try serviceConfiguration(parsed).settings.source
        var endpoint = GPSDEndpoint.default
        var device = source.gpsDevice
        if case .gpsd(let configured) = source.source {
            endpoint = configured
        } else if parsed.value("gpsd") == nil {
            writeError("pulsedot watch: the configuration's source is not gpsd; watching \(endpoint)\n")
        }
        if let text = parsed.value("gps-device") { device = text == "all" ? nil : text }
        if let text = parsed.value("gpsd") {
            do { endpoint = try GPSDEndpoint(parsing: text) } catch { throw Arguments.Failure(description: error.description) }
        }
        count = try parsed.int("count", default: 0, range: 0...Int(Int32.max))
        timeout = try parsed.double("timeout", default: 10, range: 0...86_400)
        configuration = GPSDClient.Configuration(endpoint: endpoint, device: device)
    } catch {
        return fail("watch: \(error)")
    }
    return runWatch(configuration, count: count, timeout: timeout)
}

private func runWatch(_ configuration: GPSDClient.Configuration, count: Int, timeout: Double) -> Int32 {
    var fixes = 0
    var everConnected = false
    var lastProblem = "no answer"
    let client: GPSDClient
    do {
        client = try GPSDClient(configuration: configuration) { event in
            switch event {
            case .fix(let fix):
                fixes += 1
                writeOut(fix.jsonLine + "\n")
            case .stateChanged(let state, let message):
                switch state {
                case .connected, .noReceiver, .receiving: everConnected = true
                case .unreachable(let reason), .lost(let reason): lastProblem = reason
                case .connecting, .stopped: break
                }
                writeError("pulsedot watch: \(message)\n")
            case .warning(let text):
                writeError("pulsedot watch: \(text)\n")
            case .noFix, .sky, .gst:
                break
            }
        }
    } catch {
        return fail("watch: \(error)")
    }
    let started = MonotonicInstant.now()
    let giveUp = timeout > 0 ? started.advanced(by: .nanoseconds(Int64(timeout * 1e9))) : nil
    client.start(now: started)
    while count == 0 || fixes < count {
        var now = MonotonicInstant.now()
        if !everConnected, let giveUp, now >= giveUp {
            writeError("pulsedot: watch: cannot connect to gpsd at \(configuration.endpoint) within \(timeout) s (\(lastProblem))\n")
            return 1
        }
        var descriptors: [pollfd] = []
        if let fd = client.descriptor { descriptors.append(pollfd(fd: fd, events: client.pollEvents, revents: 0)) }
        let wake = everConnected ? client.deadline : Poll.earliest(client.deadline, giveUp)
        do {
            _ = try Poll.wait(&descriptors, timeoutMilliseconds: Poll.timeoutMilliseconds(until: wake, now: now))
        } catch {
            return fail("watch: \(error)")
        }
        now = MonotonicInstant.now()
        if let polled = descriptors.first { client.handle(revents: polled.revents, now: now) }
        client.tick(now: now)
    }
    client.stop()
    return 0
}

/// stdout without buffering: each fix is visible to a reader as soon as it is printed.
private func writeOut(_ text: String) {
    do {
        _ = try text.withUTF8Bytes { (bytes) throws(SyscallError) in try FileDescriptor(rawValue: 1, name: "stdout").write(bytes) }
    } catch {
        // The reader went away (`| head`): that is the end of watching, not a failure.
        exit(error.errno == EPIPE ? 0 : 1)
    }
}
