/// The version the package carries; `deploy/package/build-deb` reads it from here.
public enum PulseDotVersion {
    public static let string = "0.1.0"
}
