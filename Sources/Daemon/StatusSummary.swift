import Metrics

/// `pulsedot status`: the metrics file as a technician on site reads it, one screen of lines
/// saying what the screen, the fix and gpsd are doing, with warnings first where something is
/// wrong. Works from the file alone (any user can read it), so it says what the daemon last
/// said, and how old that is.
public enum StatusSummary {
    /// `text`: the file's contents; `written`: its modification time and `now`, in seconds since
    /// the epoch; `every`: `[metrics] every`, which tells an old file from a fresh one.
    public static func text(metrics text: String, path: String, written: Double, now: Double,
                            every: Double) throws(MetricsSamples.ParseError) -> String {
        let m = try MetricsSamples(parsing: text)
        var warnings: [String] = []
        var lines: [String] = []
        let age = now - written
        let version = m.sample("pulsedot_build_info")?.labels["version"] ?? "?"
        lines.append("pulsedot \(version): \(path), written \(ago(age))")
        if age > 3 * every + 1 {
            warnings.append("the file is \(duration(age)) old but is rewritten every \(number(every)) s: the daemon is not running or is stuck (systemctl status pulsedot)")
        }

        let state = m.current("pulsedot_display_state", label: "state") ?? "unknown"
        var display = "display  \(state)"
        if let info = m.sample("pulsedot_display_info")?.labels {
            display += state == "driving" ? ": " : ", last driven: "
            display += "\(info["display"] ?? "?") (\(info["mode"] ?? "?"), output \(info["output"] ?? "?"))"
        }
        lines.append(display)

        let last = m.value("pulsedot_last_frame_timestamp_seconds") ?? 0
        var frames = "frames   "
        frames += last > 0 ? "last on screen \(ago(written - last)) (as the file was written)" : "none on screen yet"
        frames += "; \(count(m.value("pulsedot_frames_presented_total"))) presented of \(count(m.value("pulsedot_frames_drawn_total"))) drawn"
        lines.append(frames)
        if state == "driving", last > 0, written - last > 5 {
            warnings.append("no frame has reached the screen for \(duration(written - last)) while driving it")
        }
        if let work = workLine(m) { lines.append(work) }

        let fix = m.current("pulsedot_fix_state", label: "state") ?? "unknown"
        var fixLine = "fix      \(fix)"
        if let t = m.value("pulsedot_last_fix_timestamp_seconds"), t > 0 { fixLine += ", last \(ago(written - t))" }
        if let e = m.value("pulsedot_horizontal_error_meters") { fixLine += ", ±\(number((e * 10).rounded() / 10)) m" }
        if let s = m.value("pulsedot_satellites_used") { fixLine += ", \(count(s)) satellites used" }
        lines.append(fixLine)
        let gpsd = m.current("pulsedot_gpsd_state", label: "state")
        if fix != "live" { warnings.append("the dot does not show a live fix (\(fix)): " + noFixHint(gpsd: gpsd)) }

        var source = "source   " + (m.sample("pulsedot_source_info")?.labels["source"] ?? "?")
        if let gpsd { source += ", " + String(gpsd.map { $0 == "_" ? " " : $0 }) }
        source += ": \(count(m.value("pulsedot_gpsd_reconnects_total"))) reconnects, \(count(m.value("pulsedot_skipped_lines_total"))) skipped lines"
        lines.append(source)
        if let transit = transitLine(m, written: written) { lines.append(transit) }
        if let end = m.value("pulsedot_transit_service_end_timestamp_seconds"), end <= written {
            warnings.append("the transit feed's service period is over: a current GTFS feed is needed ([transit] gtfs)")
        }
        if let kiosk = kioskLine(m) {
            lines.append(kiosk.line)
            if let warning = kiosk.warning { warnings.append(warning) }
        }
        let degraded = MetricsReport.degradableParts.filter { m.value("pulsedot_degraded", ["part": $0]) == 1 }
        if !degraded.isEmpty {
            lines.append("degraded \(degraded.joined(separator: ", ")): left out, a file it needs cannot be read; taken up when it can")
            warnings.append("the screen runs without its \(degraded.joined(separator: " and ")): a file it needs cannot be read (journalctl -u pulsedot says which)")
        }
        lines.append("reloads  \(count(m.value("pulsedot_reloads_total", ["result": "good"]))) taken, \(count(m.value("pulsedot_reloads_total", ["result": "refused"]))) refused")
        if m.value("pulsedot_config_last_reload_successful") == 0 {
            warnings.append("the last reload was refused: the configuration from before it still runs (journalctl -u pulsedot says why)")
        }
        if let start = m.value("pulsedot_start_time_seconds") { lines.append("up       \(duration(written - start)) when the file was written") }
        return (warnings.map { "WARNING: " + $0 } + lines).joined(separator: "\n") + "\n"
    }

    /// "kiosk    live: 6 departures, 3 vehicles; tripUpdates 4 s old (fetched in 12 ms), …; 2 failed fetches (timeout)"
    /// and a warning while the board shows the timetable.
    static func kioskLine(_ m: MetricsSamples) -> (line: String, warning: String?)? {
        guard let live = m.value("pulsedot_kiosk_live_data") else { return nil }
        let state = m.current("pulsedot_kiosk_live_data_state", label: "state") ?? "unknown"
        let words = String(state.map { $0 == "_" ? " " : $0 })
        var line = "kiosk    " + (live == 1 ? "live" : "no live data (\(words))")
        line += ": \(count(m.value("pulsedot_kiosk_departures_shown"))) departures, \(count(m.value("pulsedot_kiosk_vehicles_shown"))) vehicles"
        for feed in ["vehiclePositions", "tripUpdates", "alerts"] {
            guard let age = m.value("pulsedot_realtime_feed_age_seconds", ["feed": feed]) else { continue }
            line += "; \(feed) \(duration(age)) old"
            if let took = m.value("pulsedot_realtime_fetch_duration_seconds", ["feed": feed]) { line += " (fetched in \(count((took * 1000).rounded())) ms)" }
        }
        var failed: [String] = []
        var total = 0.0
        for sample in m.samples where sample.name == "pulsedot_realtime_fetch_errors_total" && sample.value > 0 {
            total += sample.value
            failed.append(sample.labels["kind"] ?? "?")
        }
        if total > 0 { line += "; \(count(total)) failed fetches (\(failed.joined(separator: ", ")))" }
        let warning = live == 1 ? nil : "the kiosk's board shows the timetable, not live times (\(words)): " + kioskHint(state)
        return (line, warning)
    }

    static func kioskHint(_ state: String) -> String {
        switch state {
        case "unreachable": return "the feed cannot be fetched (journalctl -u pulsedot says why)"
        case "stale": return "the agency's feed is not being updated"
        case "clock_not_synchronised": return "the clock is not synchronised (timedatectl; [realtime] clock = trusted if it is kept by other means)"
        case "no_feed": return "no [realtime] tripUpdates is configured"
        default: return "no feed fetched yet"
        }
    }

    /// "transit  trip T1 (route 7): next stop Dworzec (sequence 3), 1520 m along, at a stop"
    static func transitLine(_ m: MetricsSamples, written: Double) -> String? {
        let end = m.value("pulsedot_transit_service_end_timestamp_seconds")
        // Whole days, the last one counted while any of it is left.
        let service = end.map { e in e > written ? "; \(count(((e - written) / 86400).rounded(.up))) days of service left" : "; the feed's service is over" } ?? ""
        guard let state = m.sample("pulsedot_transit_off_route") else {
            return end == nil ? nil : "transit  no trip followed" + service
        }
        var line = "transit  trip \(state.labels["trip"] ?? "?") (route \(state.labels["route"] ?? "?"))"
        if let next = m.sample("pulsedot_transit_next_stop_sequence") {
            line += ": next stop \(next.labels["stop"] ?? "?") (sequence \(count(next.value)))"
        } else {
            line += ": no stop ahead"
        }
        if let along = m.value("pulsedot_transit_distance_along_meters") { line += ", \(count(along.rounded())) m along" }
        if state.value == 1 { line += ", off route" }
        if m.value("pulsedot_transit_at_stop") == 1 { line += ", at a stop" }
        return line + service
    }

    /// Where to look when there is no live fix, from what gpsd's state tells apart: gpsd itself,
    /// the receiver's connection, or the receiver's view of the sky.
    static func noFixHint(gpsd: String?) -> String {
        switch gpsd ?? "" {
        case "unreachable": "gpsd does not answer (systemctl status gpsd)"
        case "no_receiver": "gpsd answers but no receiver feeds it (the receiver's cable and device; journalctl -u gpsd)"
        case "receiving": "the receiver feeds gpsd but has no fix (the antenna and its view of the sky; gpspipe -w)"
        default: "antenna, receiver, gpsd (gpspipe -w)"
        }
    }

    /// "work    p50 ≤ 1 ms, p99 ≤ 5 ms per frame (mean 0.84 ms); waiting for the display 15.9 ms per frame"
    static func workLine(_ m: MetricsSamples) -> String? {
        guard let n = m.value("pulsedot_frame_duration_seconds_count"), n > 0,
              let sum = m.value("pulsedot_frame_duration_seconds_sum") else { return nil }
        let buckets = m.samples.filter { $0.name == "pulsedot_frame_duration_seconds_bucket" }
            .compactMap { s in s.labels["le"].flatMap(Double.init).map { ($0, s.value) } }
            .sorted { $0.0 < $1.0 }
        func quantile(_ q: Double) -> String {
            guard let hit = buckets.first(where: { $0.1 >= q * n }) else { return "> \(ms(buckets.last?.0 ?? 0))" }
            return "≤ \(ms(hit.0))"
        }
        var line = "work     p50 \(quantile(0.5)), p99 \(quantile(0.99)) per frame (mean \(ms(sum / n)))"
        if let waited = m.value("pulsedot_display_wait_seconds_total"), let presented = m.value("pulsedot_frames_presented_total"), presented > 0 {
            line += "; waiting for the display \(ms(waited / presented)) per frame shown"
        }
        return line
    }

    static func ms(_ seconds: Double) -> String {
        let v = seconds * 1000
        return (v >= 10 ? number(v.rounded()) : number((v * 100).rounded() / 100)) + " ms"
    }

    static func ago(_ seconds: Double) -> String { seconds < 0.05 ? "just now" : duration(seconds) + " ago" }

    /// "0.4 s", "42 s", "12 min 5 s", "3 h 20 min", "2 d 4 h".
    static func duration(_ seconds: Double) -> String {
        let s = max(seconds, 0)
        if s < 10 { return number((s * 10).rounded() / 10) + " s" }
        let whole = Int(s.rounded())
        if whole < 3600 { return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s" }
        if whole < 86400 { return "\(whole / 3600) h \(whole % 3600 / 60) min" }
        return "\(whole / 86400) d \(whole % 86400 / 3600) h"
    }

    static func count(_ v: Double?) -> String { v.map { String(Int64($0)) } ?? "?" }

    static func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }
}
