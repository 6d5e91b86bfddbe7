import Foundation
import TestSupport

/// Scenarios 2 (drive) and 9 (soak): fixes flowing at bus speed.
extension FieldTrial {
    static let driveSeconds = 60

    /// The soak's length in guest minutes since the daemon started: PULSEDOT_SOAK_MINUTES, else 3
    /// (CI); the full soak is 10.
    static var soakMinutes: Double {
        ProcessInfo.processInfo.environment["PULSEDOT_SOAK_MINUTES"].flatMap(Double.init) ?? 3
    }

    // MARK: 2. Drive

    /// A 60-second route at 10 m/s. Every screendump during the drive must show the dot on the
    /// polyline through the fixes fed so far (within 2 px; the daemon glides along straight
    /// segments between fixes), never ahead of the newest fix, and never moving backwards along
    /// the route; once the bus stops, the dot rests within 2 px of the last fix.
    func drive() throws {
        let before = feeder.sent.count
        let start = route.fix(0)
        feeder.set(.drive)
        var sightings: [(seen: DotSighting, fixesSent: Int)] = []
        var problems: [String] = []
        var furthest = -Double.infinity
        var firstAlong: Double?
        var baselineTaken = false
        while feeder.sent.count - before < Self.driveSeconds {
            let sent = feeder.sent.suffix(from: before).compactMap(\.fix)
            let screen = try vm.screendump()
            guard let seen = screen.findDot(.blue) else {
                problems.append("no dot after \(sent.count) fixes (screendump \(vm.keep(screen, as: "drive-no-dot")))")
                continue
            }
            // The dot may still be at the start (the hold before the drive) or anywhere on the
            // segments fed so far; the fixes sent after this screendump cannot be on screen yet.
            let line = ScreenPolyline(points: ([start] + sent).map(expected))
            let (distance, along) = line.nearest((seen.x, seen.y))
            let newest = line.nearest(expected(sent.last ?? start)).along
            if distance > Self.tolerance {
                problems.append(String(format: "dot %@ is %.1f px off the route fed (%d fixes)", seen.description, distance, sent.count))
            }
            if along > newest + Self.tolerance {
                problems.append(String(format: "dot %@ is %.1f px ahead of the newest fix", seen.description, along - newest))
            }
            if along < furthest - Self.tolerance {
                problems.append(String(format: "dot %@ went %.1f px backwards along the route", seen.description, furthest - along))
            }
            furthest = max(furthest, along)
            if firstAlong == nil { firstAlong = along }
            sightings.append((seen, sent.count))
            if !baselineTaken, let m = try? memory(of: daemonPID), m.age >= 60 {
                rssAfterFirstMinute = m.rssAnon
                baselineTaken = true
                note("soak baseline: RssAnon \(m.rssAnon) kB at daemon age \(m.age) s")
            }
            if problems.count > 10 { break }
        }
        let last = feeder.holdLastFix()
        let driven = ScreenPolyline(points: ([start] + feeder.sent.suffix(from: before).compactMap(\.fix)).map(expected))
        let routeLength = driven.nearest(expected(last)).along
        let rest = try waitForDot(.blue, at: last, phase: "live", timeout: 60)
        // The same state rendered headless on the host: the dot in the same place.
        let headless = try HeadlessKiosk.render(last, route: route, color: Self.liveColor, width: screenWidth, height: screenHeight)
        let offHeadless = rest.distance(to: (headless.sighting.x, headless.sighting.y))
        note(String(format: "drive: %d screendumps over %d fixes, route %.0f px on screen, dot seen from %.0f to %.0f px along it; at rest %.2f px from the last fix's projection, %.2f px from the headless render's dot (%@; frames.jsonl %@)",
                    sightings.count, Self.driveSeconds, routeLength, firstAlong ?? 0, furthest, rest.distance(to: expected(last)),
                    offHeadless, headless.sighting.description, headless.frame.description))
        if offHeadless > Self.tolerance {
            problems.append(String(format: "at rest the dot %@ is %.1f px from the headless render's %@", rest.description, offHeadless, headless.sighting.description))
        }
        if let x = headless.frame.x, let y = headless.frame.y, hypot(x - expected(last).x, y - expected(last).y) > 0.5 {
            problems.append("the headless daemon places the fix at (\(x), \(y)), the projection at \(expected(last))")
        }
        guard problems.isEmpty else { throw TestFailure("the dot did not follow the route:\n" + problems.joined(separator: "\n")) }
        guard sightings.count >= 10 else { throw TestFailure("only \(sightings.count) screendumps during the drive") }
        // The dot must really have travelled with the bus, not sat at the start.
        guard furthest - (firstAlong ?? 0) >= routeLength * 0.8 else {
            throw TestFailure(String(format: "the dot moved only %.0f of %.0f px along the route during the drive", furthest - (firstAlong ?? 0), routeLength))
        }
    }

    // MARK: 9. Soak

    /// The bus drives on (the loop repeats) until the daemon has run `soakMinutes` of guest time;
    /// its anonymous memory then must not exceed the first minute's by more than 1 %.
    func soak() throws {
        let pid = daemonPID
        guard pid > 0, try mainPID() == pid else { throw TestFailure("the daemon from boot (pid \(pid)) is not the running one") }
        feeder.set(.drive)
        defer { feeder.holdLastFix() }
        let end = Int(Self.soakMinutes * 60)
        var samples: [(age: Int, rss: Int)] = []
        while true {
            let m = try memory(of: pid)
            if rssAfterFirstMinute == nil, m.age >= 60 {
                rssAfterFirstMinute = m.rssAnon
                note("soak baseline: RssAnon \(m.rssAnon) kB at daemon age \(m.age) s")
            }
            samples.append((m.age, m.rssAnon))
            if m.age >= end { break }
            // Guest time, not host time: TCG may run slower than the clock on the wall.
            try vm.must("sleep \(min(30, max(1, end - m.age)))", timeout: 120)
            guard try mainPID() == pid else { throw TestFailure("the daemon was restarted during the soak") }
        }
        guard let baseline = rssAfterFirstMinute, let final = samples.last else { throw TestFailure("no memory samples") }
        let status = try service()
        let curve = samples.map { "\($0.age)s:\($0.rss)" }.joined(separator: " ")
        note(String(format: "soak: %.0f guest minutes, RssAnon %d kB after the first minute, %d kB at the end (%+.2f %%); samples %@; %@",
                    Double(final.age) / 60, baseline, final.rss, Double(final.rss - baseline) * 100 / Double(baseline), curve,
                    status["StatusText"] ?? ""))
        guard phase(status) == "live" else { throw TestFailure("the dot is not live at the end of the soak: \(status["StatusText"] ?? "")") }
        guard Double(final.rss) <= Double(baseline) * 1.01 else {
            throw TestFailure("RssAnon grew from \(baseline) kB to \(final.rss) kB (more than 1 %): \(curve)")
        }
        _ = try waitForDot(.blue, at: feeder.holdLastFix(), phase: "live")
    }
}
