// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// `make deb`'s package of the release programs (`make test` built them first): lintian finds no
/// error, its Depends name the C libraries, and unpacked into a throw-away root the bridge starts from
/// there without the Swift toolchain's libraries and finds its policies.
@Suite("The Debian package", .serialized, .threadOfItsOwn)
struct DebianPackageTests {
    let root = NSTemporaryDirectory() + "audiosession-deb-\(UUID().uuidString.prefix(8))"

    func run(_ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> String
    {
        let (status, output) = try TestProcess.run(executable, arguments, environment: environment)
        guard status == 0 else { throw HarnessError("\(executable) \(arguments.joined(separator: " ")) exited \(status): \(output)") }
        return output
    }

    @Test func packageCheckedAndStartedFromAThrowAwayRoot() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let package = try run(Repository.root + "/scripts/make-deb.sh",
                              [Repository.root + "/.build/release", Repository.root + "/.build/dist", root + "/out"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let lintian = try TestProcess.run("/usr/bin/lintian", ["--fail-on", "error", "--tag-display-limit", "0", package],
                                          environment: ProcessInfo.processInfo.environment)
        #expect(lintian.status == 0 && !lintian.output.contains("E: "), "\(lintian.output)")
        let depends = try run("/usr/bin/dpkg-deb", ["--field", package, "Depends"])
        #expect(depends.contains("libpulse0") && depends.contains("libdbus-1-3"), "\(depends)")
        #expect(!depends.contains("swift"), "\(depends)")

        let unpacked = root + "/root"
        _ = try run("/usr/bin/dpkg", ["-x", package, unpacked])
        let daemonPath = unpacked + "/usr/bin/audiosessiond", ctlPath = unpacked + "/usr/bin/audiosessionctl"
        let dynamic = try run("/usr/bin/readelf", ["-d", daemonPath])
        #expect(!dynamic.contains("RUNPATH") && !dynamic.contains("RPATH") && !dynamic.contains("libswift"), "\(dynamic)")

        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        var environment = server.environment
        environment["XDG_STATE_HOME"] = root + "/state"
        environment["LD_LIBRARY_PATH"] = nil
        let daemon = try TestProcess(daemonPath, ["--server", server.address], environment: environment,
                                     logDirectory: server.root + "/logs")
        defer { daemon.stop() }
        try waitUntil("the unpacked bridge on the session bus") {
            try TestProcess.run("busctl", ["--address=\(server.busAddress!)", "status", "io.github.audiosession.Bridge1"],
                                environment: environment).status == 0
        }
        let status = try run(ctlPath, ["status", "--format", "json"], environment: environment)
        #expect(status.contains("\"devices\""), "\(status)")
        // The policies come from the package's own share folder, beside its bin folder.
        let policies = try run(ctlPath, ["policy", "list"], environment: environment)
        #expect(policies.contains("voip") && policies.contains("media-player"), "\(policies)")
    }
}
