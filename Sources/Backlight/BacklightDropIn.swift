/// The systemd drop-in a board needs for the service to write its backlight: the unit's
/// ProtectKernelTunables=yes mounts /sys read-only, and ReadWritePaths= opens the one attribute
/// again (the udev rule gives the pulsedot group write permission on it).
public enum BacklightDropIn {
    public static let path = "/etc/systemd/system/pulsedot.service.d/backlight.conf"

    public static func text(for device: BacklightDevice) -> String {
        """
        # \(path), printed by `pulsedot backlight --drop-in`:
        # lets pulsedot.service write the brightness of backlight \(device.name) (max_brightness \(device.maxBrightness)),
        # which the unit's ProtectKernelTunables=yes leaves read-only with the rest of /sys.
        # After changing it: systemctl daemon-reload && systemctl restart pulsedot
        [Service]
        # The leading - lets the service start when the panel (and so the attribute) is absent.
        ReadWritePaths=-\(device.unitPath)

        """
    }
}
