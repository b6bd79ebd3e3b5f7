// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// `make install` and `make uninstall` as a packager runs them: copies only, into DESTDIR, with no
/// package manager and no sudo; manual pages that render without warnings; a unit systemd accepts.
/// The programs are the tests' debug build; `make test` made their manuals and completions first.
@Suite("make install", .serialized, .threadOfItsOwn)
struct InstallTests {
    static let manuals = Repository.root + "/.build/dist-debug"
    let root = NSTemporaryDirectory() + "audiosession-install-\(UUID().uuidString.prefix(8))"

    /// Runs make in the package with a PATH whose `sudo`, `apt-get` and `dpkg-query` only leave a mark.
    func make(_ arguments: [String]) throws -> String {
        let shims = root + "/shims"
        for tool in ["sudo", "apt-get", "dpkg-query", "swift"] {
            try ProgramFiles.write(script: "#!/bin/sh\necho \(tool) >> '\(root)/called'\nexit 99\n", to: shims + "/" + tool)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = shims + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let (status, output) = try TestProcess.run(
            "/usr/bin/make", ["-C", Repository.root, "--no-print-directory", "RELEASE_DIR=\(BridgeDaemon.buildDirectory)",
                              "DIST_DIR=\(Self.manuals)"] + arguments, environment: environment)
        guard status == 0 else { throw HarnessError("make \(arguments.joined(separator: " ")) exited \(status): \(output)") }
        #expect(!FileManager.default.fileExists(atPath: root + "/called"), "make called a package manager, sudo or swift")
        return output
    }

    func files(under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { !((try? FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.type] as? FileAttributeType) == .typeDirectory) }
            .sorted()
    }

    @Test func installIntoDestdirThenUninstall() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let destdir = root + "/dest"
        _ = try make(["install", "DESTDIR=\(destdir)", "PREFIX=/usr"])
        let installed = files(under: destdir)
        for expected in ["usr/bin/audiosessiond", "usr/bin/audiosessionctl", "usr/bin/audiosession-indicator",
                         "usr/lib/systemd/user/audiosession-indicator.service", "etc/xdg/autostart/audiosession-indicator.desktop",
                         "usr/share/audiosession/policies/voip.toml",
                         "usr/lib/systemd/user/audiosessiond.service",
                         "usr/share/dbus-1/services/io.github.audiosession.Bridge1.service",
                         "usr/share/dbus-1/interfaces/io.github.audiosession.Bridge1.xml",
                         "usr/share/man/man1/audiosessionctl.1", "usr/share/man/man5/audiosession-policy.5",
                         "usr/share/man/man8/audiosessiond.8", "usr/share/bash-completion/completions/audiosessionctl",
                         "usr/share/zsh/site-functions/_audiosessionctl",
                         "usr/share/fish/vendor_completions.d/audiosessionctl.fish"] {
            #expect(installed.contains(expected), "\(expected) is not installed: \(installed)")
        }
        let unit = try String(contentsOfFile: destdir + "/usr/lib/systemd/user/audiosessiond.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/audiosessiond"))
        let entry = try String(contentsOfFile: destdir + "/etc/xdg/autostart/audiosession-indicator.desktop", encoding: .utf8)
        #expect(entry.contains("Exec=/usr/bin/audiosession-indicator"))
        let (valid, complaints) = try TestProcess.run(
            "desktop-file-validate", [destdir + "/etc/xdg/autostart/audiosession-indicator.desktop"],
            environment: ProcessInfo.processInfo.environment)
        #expect(valid == 0 && complaints.isEmpty, "desktop-file-validate: \(complaints)")
        for page in ["man1/audiosessionctl.1", "man5/audiosession-policy.5", "man8/audiosessiond.8"] {
            var environment = ProcessInfo.processInfo.environment
            environment["MANWIDTH"] = "80"
            environment["LC_ALL"] = "C.UTF-8"
            let (status, output) = try TestProcess.run(
                "/bin/sh", ["-c", "man --warnings -l '\(destdir)/usr/share/man/\(page)' 2>&1 >/dev/null"], environment: environment)
            #expect(status == 0 && output.isEmpty, "man -l \(page): \(output)")
        }
        _ = try make(["uninstall", "DESTDIR=\(destdir)", "PREFIX=/usr"])
        #expect(files(under: destdir).isEmpty, "left behind: \(files(under: destdir))")
    }

    /// Installed where its programs really are, the unit passes `systemd-analyze verify` (which also
    /// looks for the programs and the manual pages it names).
    @Test func unitPassesSystemdVerify() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let prefix = root + "/usr"
        _ = try make(["install", "PREFIX=\(prefix)"])
        var environment = ProcessInfo.processInfo.environment
        environment["MANPATH"] = prefix + "/share/man"
        let (status, output) = try TestProcess.run(
            "/usr/bin/systemd-analyze", ["verify", prefix + "/lib/systemd/user/audiosessiond.service",
                                         prefix + "/lib/systemd/user/audiosession-indicator.service"], environment: environment)
        #expect(status == 0, "\(output)")
        #expect(!output.contains("Unknown key") && !output.contains("failed"), "\(output)")
    }

    /// `systemd-analyze security` finds the hardening pipewire.service has, and more, and rates the
    /// unit lower than the same unit without its hardening lines.
    @Test func unitHardeningBySystemdAnalyzeSecurity() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let prefix = root + "/usr"
        _ = try make(["install", "PREFIX=\(prefix)"])
        let runtime = root + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["SYSTEMD_COLORS"] = "0"
        func analyze(_ unit: String) throws -> (checks: [String: Bool], exposure: Double) {
            let (status, output) = try TestProcess.run(
                "/usr/bin/systemd-analyze", ["security", "--offline=true", "--user", "--no-pager", unit], environment: environment)
            #expect(status == 0, "\(output)")
            var checks: [String: Bool] = [:]
            for line in output.split(separator: "\n") {
                guard let mark = line.first, mark == "✓" || mark == "✗" else { continue }
                checks[String(line.dropFirst(2).prefix { $0 != " " })] = mark == "✓"
            }
            let rating = output.split(separator: "\n").first { $0.contains("Overall exposure level") }
            let exposure = rating.flatMap { $0.split(separator: ":").last?.split(separator: " ").first }.flatMap { Double($0) }
            return (checks, exposure ?? .infinity)
        }
        let installed = prefix + "/lib/systemd/user/audiosessiond.service"
        let hardened = try analyze(installed)
        for option in ["NoNewPrivileges=", "SystemCallFilter=~@mount", "SystemCallFilter=~@module", "SystemCallArchitectures=",
                       "LockPersonality=", "MemoryDenyWriteExecute=", "RestrictNamespaces=~user", "RestrictRealtime=",
                       "RestrictSUIDSGID=", "RestrictAddressFamilies=~AF_PACKET", "RestrictAddressFamilies=~AF_NETLINK",
                       "KeyringMode=", "UMask="] {
            #expect(hardened.checks[option] == true, "\(option): \(hardened.checks)")
        }
        let text = try String(contentsOfFile: installed, encoding: .utf8)
        let hardeningKeys = ["LockPersonality", "MemoryDenyWriteExecute", "NoNewPrivileges", "RestrictNamespaces",
                             "SystemCallArchitectures", "SystemCallFilter", "KeyringMode", "RestrictAddressFamilies",
                             "RestrictRealtime", "RestrictSUIDSGID", "UMask"]
        let bare = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in !hardeningKeys.contains { line.hasPrefix($0 + "=") } }.joined(separator: "\n")
        let bareUnit = root + "/bare/audiosessiond.service"
        try FileManager.default.createDirectory(atPath: root + "/bare", withIntermediateDirectories: true)
        try bare.write(toFile: bareUnit, atomically: true, encoding: .utf8)
        let unhardened = try analyze(bareUnit)
        #expect(unhardened.checks["NoNewPrivileges="] == false)
        #expect(hardened.exposure < unhardened.exposure, "exposure \(hardened.exposure) against \(unhardened.exposure) without hardening")
    }

    /// The installed bash completion, run as bash runs it on Tab with the installed program found
    /// along PATH, offers the real policy names, the apps the policies name, the apps with a record
    /// permission, and the vocabulary.
    @Test func bashCompletionOffersRealNames() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let prefix = root + "/usr"
        _ = try make(["install", "PREFIX=\(prefix)"])
        try FileManager.default.createDirectory(atPath: root + "/state/audiosession", withIntermediateDirectories: true)
        try #"{"org.example.Recorder": "granted"}"#.write(toFile: root + "/state/audiosession/permissions.json",
                                                         atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = prefix + "/bin:/usr/bin:/bin"
        environment["XDG_STATE_HOME"] = root + "/state"
        environment["XDG_RUNTIME_DIR"] = root
        environment["XDG_CONFIG_HOME"] = root + "/config"
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        func complete(_ line: String) throws -> [String] {
            var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if words.last == nil { words.append("") }
            let script = """
                source '\(prefix)/share/bash-completion/completions/audiosessionctl'
                COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
                _audiosessionctl audiosessionctl '\(words[words.count - 1])' '\(words[words.count - 2])'
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let (status, output) = try TestProcess.run("/bin/bash", ["-c", script], environment: environment)
            #expect(status == 0, "\(output)")
            return output.split(separator: "\n").map(String.init)
        }
        #expect(try complete("audiosessionctl exec --policy ").contains("voip"))
        #expect(try complete("audiosessionctl exec --policy med") == ["media-player"])
        #expect(try complete("audiosessionctl policy explain signal").contains("signal-desktop"))
        #expect(try complete("audiosessionctl permission grant org.ex") == ["org.example.Recorder"])
        #expect(try complete("audiosessionctl exec --category playA") == ["playAndRecord"])
        #expect(try complete("audiosessionctl exec --option duck").contains("duckOthers"))
    }
}
