import Glibc
import Location
import Syscall

/// What gpsd's lines mean to the client: fixes to emit, devices to report, lines to skip.
extension GPSDClient {
    func process(_ event: LineFramer.Event, now: MonotonicInstant) {
        guard case .open(let fd, var session) = phase else { return }
        statistics.linesReceived += 1
        session.lastLineAt = now
        switch event {
        case .oversize(let length):
            skip(.oversizeLine, "line of \(length) bytes is longer than \(configuration.maximumLineLength)", &session)
        case .line(let bytes):
            switch MessageDecoder.decode(bytes) {
            case .skipped(let reason, let detail): skip(reason, detail, &session)
            case .message(let message): handle(message, &session, now: now)
            }
        }
        // An event handler may have stopped the client; then there is no session to keep.
        guard case .open(let current, _) = phase, current == fd else { return }
        phase = .open(fd, session)
    }

    func skip(_ reason: SkipReason, _ detail: String, _ session: inout Session) {
        statistics.skipped[reason] += 1
        guard reason.isBadInput, session.warned.insert(reason.rawValue).inserted else { return }
        onEvent(.warning("gpsd at \(configuration.endpoint): skipped a line: \(detail) (more like it are only counted)"))
    }

    func handle(_ message: GPSDMessage, _ session: inout Session, now: MonotonicInstant) {
        switch message {
        case .version(let v):
            session.gotVersion = true
            report(.connected(release: v.release),
                   "connected to gpsd \(v.release ?? "(release unknown)") at \(configuration.endpoint)")
        case .devices(let devices):
            session.knowsDevices = true
            session.activeDevices = devices.compactMap { $0.activated == true ? $0.path : nil }.filter(wanted)
            reportDevices(session)
        case .device(let d):
            guard let path = d.path, wanted(path), let activated = d.activated else { return }
            session.knowsDevices = true
            if activated {
                if !session.activeDevices.contains(path) { session.activeDevices.append(path) }
            } else {
                session.activeDevices.removeAll { $0 == path }
            }
            reportDevices(session)
        case .watch:
            break
        case .tpv(let tpv):
            if let path = tpv.device {
                guard wanted(path) else { return }
                // A receiver that reports is active, even if its DEVICE message went missing.
                if !session.activeDevices.contains(path) {
                    session.knowsDevices = true
                    session.activeDevices.append(path)
                    reportDevices(session)
                }
            }
            if let fix = Fix(tpv, receivedAt: now) {
                statistics.fixes += 1
                onEvent(.fix(fix))
            } else {
                statistics.tpvsWithoutFix += 1
                onEvent(.noFix(tpv))
            }
        case .sky(let sky):
            onEvent(.sky(sky))
        case .gst(let gst):
            onEvent(.gst(gst))
        case .error(let text):
            onEvent(.warning("gpsd at \(configuration.endpoint) says: \(text)"))
            // gpsd answers a watch for a receiver it does not have with only this ERROR. It is up
            // and has no receiver for us: waiting quietly beats reconnecting every silence timeout.
            // If the receiver appears, gpsd sends DEVICE; should no data follow, the silence
            // timeout reconnects and the watch is sent again.
            if !session.knowsDevices {
                session.knowsDevices = true
                reportDevices(session)
            }
        }
    }

    func wanted(_ path: String) -> Bool { configuration.device.map { $0 == path } ?? true }

    func reportDevices(_ session: Session) {
        if session.activeDevices.isEmpty {
            report(.noReceiver, "gpsd at \(configuration.endpoint) is reachable, no receiver")
        } else {
            report(.receiving(devices: session.activeDevices),
                   "gpsd at \(configuration.endpoint): receiving from \(session.activeDevices.joined(separator: ", "))")
        }
    }
}
