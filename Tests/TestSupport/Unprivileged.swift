import Foundation
import Glibc

extension TestEnvironment {
    /// Runs one test of the running test bundle again as `nobody` (setpriv, no groups, no
    /// capabilities) and returns its exit status and output. For tests of what permissions refuse:
    /// root is refused nothing, and CI runs as root, so such a test would otherwise never run.
    /// `test` is `Module.Class/testMethod`.
    public static func rerunAsNobody(_ test: String) throws -> (status: Int32, output: String) {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw TestFailure("setpriv (util-linux) is needed to run \(test) as an unprivileged user")
        }
        let run = try runProgram("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                                       "--inh-caps=-all", "--", bundle, test], timeout: 300)
        return (run.status, run.stdout + run.stderr)
    }
}
