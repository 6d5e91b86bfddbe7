import Foundation
import Glibc

/// A child process with its output captured to files, for tests that drive real programs.
public final class ChildProcess {
    public let process = Process()
    public let stdoutURL: URL
    public let stderrURL: URL
    public let label: String

    /// Starts `executable` with `arguments`; `environment` entries are added to the current ones.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                workDirectory: URL? = nil, label: String? = nil) throws {
        self.label = label ?? URL(fileURLWithPath: executable).lastPathComponent
        let dir = try TestEnvironment.temporaryDirectory("proc")
        stdoutURL = dir.appendingPathComponent("stdout")
        stderrURL = dir.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let workDirectory { process.currentDirectoryURL = workDirectory }
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    public var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    public func signal(_ sig: Int32) { if process.isRunning { kill(process.processIdentifier, sig) } }

    /// Waits up to `timeout` seconds; returns the exit status, or nil if still running.
    @discardableResult
    public func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Waits until `condition` holds, polling every 50 ms, up to `timeout` seconds.
    public static func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// SIGKILLs the child if it is still running and reaps it.
    public func terminate() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    deinit { terminate() }
}

/// Runs a program to completion and returns (status, stdout, stderr).
@discardableResult
public func runProgram(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                       timeout: Double = 120) throws -> (status: Int32, stdout: String, stderr: String) {
    let child = try ChildProcess(executable, arguments, environment: environment)
    guard let status = child.wait(timeout: timeout) else {
        child.terminate()
        throw TestFailure("\(child.label) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
    }
    return (status, child.stdout, child.stderr)
}
