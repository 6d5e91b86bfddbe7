import Foundation

/// The pieces of NMEA 0183 the tests write themselves (gpsd's tests, the run tests): sentences
/// with correct checksums, times, and coordinates together with what a reader gets back from them.
public enum NMEAWriter {
    /// `$BODY*CS` where CS is the XOR of the body's bytes in two upper-case hex digits.
    public static func sentence(_ body: String) -> String {
        "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^))
    }

    /// hhmmss.00 for `seconds` since midnight.
    public static func time(_ seconds: Int) -> String {
        String(format: "%02d%02d%02d.00", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    /// ddmm.mmmmm,H (`width` digits of degrees: 2 for latitude, 3 for longitude) and its value as
    /// written: the minutes rounded to the 5 decimals a reader gets back.
    public static func coordinate(_ degrees: Double, width: Int, positive: String, negative: String) -> (text: String, value: Double) {
        let a = abs(degrees), d = Int(a)
        let minutes = ((a - Double(d)) * 60 * 100_000).rounded() / 100_000
        let text = String(format: "%0\(width)d%08.5f,%@", d, minutes, degrees >= 0 ? positive : negative)
        let value = (Double(d) + minutes / 60) * (degrees >= 0 ? 1 : -1)
        return (text, value)
    }
}
