// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import ArgumentParser
import CommandLineSupport
import Foundation

extension AudioSessionControl.Policy {
    /// `audiosessionctl policy explain APP-OR-PID`: which policy an app gets, and which fact and rule
    /// decided it.
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell which policy an app gets and why.",
            discussion: """
                APP-OR-PID is a running process's id, or an app's desktop id, Flatpak id, binary or \
                application name. For a process, the bridge's sources are read as it reads them: the \
                Flatpak sandbox, the systemd unit the desktop started it in, its binary (for an \
                interpreter, the script it runs) and its desktop entry's categories.
                """)
        @OptionGroup var path: PolicyPathOptions
        @Argument(help: "The app, or a process id.", completion: CompletionNames.apps) var app: String
        @Option(help: "The stream's media.role, if it sets one.") var role: String?

        func run() throws {
            let set = try path.load()
            let environment = ProcessInfo.processInfo.environment
            let identity: AppIdentity
            if let pid = Int32(app), pid > 0 {
                guard let found = AppLookup.app(ofProcess: pid, environment: environment) else {
                    writeToStandardError("audiosessionctl: no process \(pid)\n")
                    throw ExitCode(1)
                }
                identity = found.app
                print("process \(pid):")
                for line in Self.facts(of: found.app, unit: found.unit) { print("  \(line)") }
            } else {
                identity = AppLookup.app(named: app, environment: environment)
                print("\(app): taken as a desktop id, Flatpak id, binary and application name")
                if let entry = identity.desktopEntry {
                    print("\(app): desktop entry \(entry.id) (categories \(entry.categories.joined(separator: ";")))")
                }
            }
            let byName = Int32(app) == nil
            if let choice = set.choice(for: identity, role: role) {
                // A name stands for every fact at once: say only where it was found.
                let reason = byName && choice.source.namesTheApp
                    ? "'\(choice.value)' is in \(choice.rule)" : choice.reason
                print("\(byName ? app : identity.key): \(choice.policy.name), because \(reason); \(choice.policy.configuration)")
            } else {
                let roleNote = role.map { " and no policy is the fallback for media.role '\($0)'" } ?? ""
                print("\(byName ? app : identity.key): no policy (no rule names it\(roleNote); its streams mix with everything and are never touched)")
            }
        }

        /// The facts read about a process, one a line.
        static func facts(of app: AppIdentity, unit: String?) -> [String] {
            var lines: [String] = []
            if let id = app.flatpakID { lines.append("Flatpak app id: \(id)") }
            if let unit, let id = app.unitDesktopID { lines.append("systemd unit: \(unit) (desktop id \(id))") }
            if let binary = app.binary { lines.append("binary: \(binary)") }
            if let script = app.script { lines.append("script: \(script)") }
            if let entry = app.desktopEntry {
                lines.append("desktop entry: \(entry.id), found by its \(entry.foundBy.rawValue) (categories \(entry.categories.joined(separator: ";")))")
            } else {
                lines.append("desktop entry: none found")
            }
            return lines
        }
    }
}
