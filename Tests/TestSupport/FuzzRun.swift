import Foundation

/// One run of a deploy/fuzz/fuzz-* script as CI runs it, for the fuzz tests to judge: its status, the
/// tail of libFuzzer's report, whether it ran to its time limit, whether LeakSanitizer spoke,
/// and its count of executed inputs. PULSEDOT_FUZZ_SECONDS sets the length (default 60, or the
/// target's own default when it needs less).
public struct FuzzRun {
    public let script: String
    public let seconds: String
    public let status: Int32
    public let stderr: String

    public init(script name: String, defaultSeconds: String = "60") throws {
        script = name
        seconds = ProcessInfo.processInfo.environment["PULSEDOT_FUZZ_SECONDS"] ?? defaultSeconds
        let result = try runProgram(TestEnvironment.packageRoot.appendingPathComponent("deploy/fuzz/\(name)").path, [seconds], timeout: 900)
        status = result.status
        stderr = result.stderr
    }

    /// The last 40 lines of libFuzzer's output: what a failure message carries.
    public var report: String { stderr.split(separator: "\n").suffix(40).joined(separator: "\n") }

    /// libFuzzer says "Done N runs in S second(s)" only when it reached its time limit.
    public var ranToTheEnd: Bool { stderr.contains("Done ") }

    public var leakReported: Bool { stderr.contains("LeakSanitizer") }

    /// libFuzzer's final "stat::number_of_executed_units: N" line.
    public var executedUnits: String? {
        stderr.split(separator: "\n").first { $0.hasPrefix("stat::number_of_executed_units:") }.map(String.init)
    }
}
