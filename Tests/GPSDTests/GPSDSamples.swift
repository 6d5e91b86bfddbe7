/// Lines as Debian 12's gpsd 3.22 writes them (taken from a gpsfake run), for unit tests.
enum GPSDSamples {
    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
    static let devices = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/2","activated":"2026-11-29T14:52:33.737Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}"#
    static let noDevices = #"{"class":"DEVICES","devices":[]}"#
    static let watch = #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#
    static let deviceActivated = #"{"class":"DEVICE","path":"/dev/pts/2","driver":"NMEA0183","activated":"2026-11-29T14:52:34.137Z","native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}"#
    static let deviceGone = #"{"class":"DEVICE","path":"/dev/pts/2","activated":0}"#
    static let tpvNoFix = #"{"class":"TPV","device":"/dev/pts/2","mode":1}"#
    static let tpv3D = #"{"class":"TPV","device":"/dev/pts/2","status":2,"mode":3,"time":"2034-11-27T20:26:43.000Z","ept":0.005,"lat":44.068841667,"lon":-121.314191667,"altHAE":1108.1000,"altMSL":1127.7000,"alt":1127.7000,"epx":1.919,"epy":2.470,"epv":5.923,"track":171.4700,"magtrack":185.8884,"magvar":14.4,"speed":0.010,"climb":0.000,"epc":13.46,"geoidSep":-19.600,"eph":4.655,"sep":7.790}"#
    static let tpv2DNoTime = #"{"class":"TPV","device":"/dev/pts/2","mode":2,"lat":52.500200000,"lon":13.400200000,"magvar":4.1,"eph":47.500,"sep":1899.810}"#
    static let gst = #"{"class":"GST","device":"/dev/pts/2","time":"2024-06-01T12:00:04.000Z","rms":1.500,"major":3.000,"minor":2.000,"orient":45.000,"lat":2.500,"lon":1.800,"alt":4.000}"#
    static let sky = #"{"class":"SKY","device":"/dev/pts/2","xdop":0.51,"ydop":0.66,"vdop":1.03,"tdop":0.61,"hdop":0.84,"gdop":1.46,"pdop":1.33,"nSat":3,"uSat":2,"satellites":[{"PRN":9,"el":88.0,"az":89.0,"ss":31.0,"used":true,"gnssid":0,"svid":9},{"PRN":7,"el":60.0,"az":281.0,"ss":44.0,"used":true,"gnssid":0,"svid":7},{"PRN":47,"el":0.0,"az":0.0,"ss":0.0,"used":false,"gnssid":1,"svid":47}]}"#
    static let error = #"{"class":"ERROR","message":"No such device as /dev/nonexist"}"#
    static let att = #"{"class":"ATT","device":"/dev/pts/2","time":"2024-06-01T12:00:04.000Z","heading":14223.00,"mag_st":"N"}"#
    static let nmeaLine = "$GPGGA,202640.000,4404.1306,N,12118.8515,W,2,10,0.98,1127.7,M,-19.6,M,0000,0000*6C"

    /// What a watcher sees in the first second of a session.
    static let session = [version, devices, watch, deviceActivated, tpvNoFix, tpv2DNoTime, tpv3D, sky, gst, att, error]

    /// A SKY line with `satellites` entries, every other one used; 95 make it longer than 10 KiB
    /// (the 3,379-byte one seen from a real receiver had 30).
    static func skyLine(satellites: Int) -> String {
        var entries: [String] = []
        for i in 0..<satellites {
            entries.append(#"{"PRN":\#(i + 1),"el":\#(i % 90).0,"az":\#((i * 37) % 360).0,"ss":\#(20 + i % 30).0,"used":\#(i % 2 == 0),"gnssid":\#(i % 7),"svid":\#(i + 1),"sigid":0,"freqid":0,"health":1}"#)
        }
        return #"{"class":"SKY","device":"/dev/ttyACM0","time":"2024-06-01T12:00:04.000Z","xdop":0.51,"ydop":0.66,"vdop":1.03,"tdop":0.61,"hdop":0.84,"gdop":1.46,"pdop":1.33,"satellites":[\#(entries.joined(separator: ","))]}"#
    }
}
