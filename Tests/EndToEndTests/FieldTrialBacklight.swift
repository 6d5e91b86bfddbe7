import Foundation
import TestSupport

/// Scenario 12: the backlight through the unit's sandbox, on a real sysfs attribute. QEMU has no
/// backlight, so the PS/2 keyboard's Caps Lock LED stands in: the LED class has the same
/// `brightness`/`max_brightness` pair, root's alone, under the same read-only /sys. The daemon is
/// pointed at it by a folder shaped like /sys whose `class/backlight/capslock` links to the LED,
/// the way /sys/class/backlight/NAME links to the device. Three steps, each a restart of the unit
/// as shipped plus what a board adds: without the drop-in the write is refused by the read-only
/// /sys (said once, the dot drawn all along); with the drop-in `pulsedot backlight --drop-in`
/// prints (mapped to the LED's class) and the package's own udev rule (matched to the LED) the
/// level reaches the hardware and the metrics, the unit's exposure still at most 1.5; then the
/// board is put back.
extension FieldTrial {
    func backlight() throws {
        let here = feeder.holdLastFix()
        let led = try vm.must("ls /sys/class/leds | grep '::capslock$' | head -n1").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !led.isEmpty else { throw TestFailure("the guest has no Caps Lock LED in /sys/class/leds: \(try vm.must("ls /sys/class/leds"))") }
        let attribute = "/sys/class/leds/\(led)/brightness"
        let root = "/var/lib/pulsedot-trial-sys"
        let unitDropIn = "/etc/systemd/system/pulsedot.service.d/trial-sysfs.conf"
        let configDropIn = "/etc/pulsedot/pulsedot.conf.d/60-backlight.conf"
        try vm.must("""
            mkdir -p \(root)/class/backlight /etc/systemd/system/pulsedot.service.d /etc/pulsedot/pulsedot.conf.d
            ln -sfn /sys/class/leds/\(led) \(root)/class/backlight/capslock
            printf '[Service]\\nEnvironment=PULSEDOT_SYSFS_ROOT=\(root)\\n' > \(unitDropIn)
            printf '[display]\\nbrightness = 100\\nbrightnessSmoothing = 0\\n' > \(configDropIn)
            echo 0 > '\(attribute)'
            """)

        // 1. The unit as shipped: /sys is read-only in its sandbox.
        var since = try restartAndWait(here)
        let refused = try vm.waitFor("the journal saying the backlight cannot be written", timeout: 30) { () -> String? in
            try journal(since: since).split(separator: "\n").first { $0.contains("brightness: cannot write the level") }.map(String.init)
        }
        guard refused.contains("Read-only file system"), refused.contains("pulsedot backlight --drop-in") else {
            throw TestFailure("not the read-only /sys with its hint: \(refused)")
        }
        usleep(2_500_000)  // the retry period's first retries, which must not be said again
        let said = try journal(since: since).components(separatedBy: "brightness: cannot write the level").count - 1
        guard said == 1 else { throw TestFailure("the refused write was said \(said) times, not once") }
        guard try vm.must("cat '\(attribute)'").trimmingCharacters(in: .whitespacesAndNewlines) == "0" else {
            throw TestFailure("the LED changed although /sys is read-only for the service")
        }

        // 2. What a board adds: the drop-in the tool prints, and the package's udev rule.
        let printed = try vm.must("PULSEDOT_SYSFS_ROOT=\(root) pulsedot backlight --drop-in --set display.backlight=capslock")
        guard printed.contains("ReadWritePaths=-/sys/class/backlight/capslock/brightness") else {
            throw TestFailure("pulsedot backlight --drop-in printed:\n\(printed)")
        }
        let dropIn = printed.replacingOccurrences(of: "/sys/class/backlight/capslock/", with: "/sys/class/leds/\(led)/")
        try vm.must("""
            printf '%s' '\(Data(dropIn.utf8).base64EncodedString())' | base64 -d > /etc/systemd/system/pulsedot.service.d/backlight.conf
            sed 's/SUBSYSTEM=="backlight"/SUBSYSTEM=="leds", KERNEL=="*::capslock"/' /usr/lib/udev/rules.d/60-pulsedot-backlight.rules > /etc/udev/rules.d/60-trial-leds.rules
            udevadm control --reload && udevadm trigger --subsystem-match=leds --action=add && udevadm settle
            """)
        let mode = try vm.must("stat -L -c '%G %a' '\(attribute)'").trimmingCharacters(in: .whitespacesAndNewlines)
        guard mode == "pulsedot 664" else { throw TestFailure("after the udev rule the attribute is '\(mode)', not group pulsedot 664") }
        since = try restartAndWait(here)
        let set = try vm.waitFor("the journal saying the level was set", timeout: 30) { () -> String? in
            try journal(since: since).split(separator: "\n").first { $0.contains("brightness: backlight capslock") }.map(String.init)
        }
        guard set.contains("set to 100 %") else { throw TestFailure("not the configured level: \(set)") }
        let value = try vm.must("cat '\(attribute)'").trimmingCharacters(in: .whitespacesAndNewlines)
        guard value == "1" else { throw TestFailure("the LED's brightness is \(value), not its max_brightness 1") }
        let metric = try vm.waitFor("the level in the metrics file", timeout: 30) { () -> String? in
            try vm.run("grep '^pulsedot_backlight_brightness_percent ' /run/pulsedot/metrics.prom").output
                .trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        }
        guard metric == "pulsedot_backlight_brightness_percent 100" else { throw TestFailure("metrics: \(metric)") }
        let exposure = try vm.must("systemd-analyze security pulsedot --no-pager | tail -n1").trimmingCharacters(in: .whitespacesAndNewlines)
        let level = exposure.components(separatedBy: ": ").last.flatMap { Double($0.split(separator: " ").first ?? "") }
        guard let level, level <= 1.5 else { throw TestFailure("with the drop-in: \(exposure) (at most 1.5)") }

        // 3. The board as it was for the scenarios after this one; the watchdog scenario's restart
        // starts the daemon without them (a restart here would only cost time).
        try vm.must("rm -f \(unitDropIn) /etc/systemd/system/pulsedot.service.d/backlight.conf \(configDropIn) /etc/udev/rules.d/60-trial-leds.rules"
                    + " && systemctl daemon-reload")
        note("backlight: \(led) read-only at first (\"\(refused.prefix(90))…\", said once); drop-in + udev rule: group \(mode), "
             + "\"\(set)\", attribute \(value), \(metric); \(exposure)")
    }

    /// Reloads systemd's units, restarts the daemon and waits for the dot; returns the guest time
    /// before the restart, for the journal.
    private func restartAndWait(_ fix: NMEA.Fix) throws -> Int {
        let since = try guestNow()
        try vm.must("systemctl daemon-reload && systemctl restart pulsedot", timeout: 90)
        try waitForDot(.blue, at: fix, phase: "live", timeout: 90)
        return since
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
