// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import AudioSessionIPC
import ArgumentParser
import CommandLineSupport
import DBusKit
import Foundation
import Glibc

extension AudioSessionControl.Policy {
    /// `audiosessionctl policy explain APP`: which policy an app gets, and why.
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell which policy an app gets and why (APP is a desktop id, Flatpak id, binary or application name).")
        @OptionGroup var path: PolicyPathOptions
        @Argument(help: "The app.", completion: CompletionNames.apps) var app: String
        @Option(help: "The stream's media.role, if it sets one.") var role: String?

        func run() throws {
            let set = try path.load()
            for policy in set.policies {
                let rules: [(String, Set<String>)] = [
                    ("desktop id", policy.match.desktopIDs), ("Flatpak id", policy.match.flatpakIDs),
                    ("binary", policy.match.binaries), ("application name", policy.match.applicationNames),
                ]
                if let rule = rules.first(where: { $0.1.contains(app) }) {
                    print("\(app): \(policy.name) (its \(rule.0) '\(app)' is listed there; \(policy.configuration))")
                    return
                }
                if let role, policy.match.roles.contains(role) {
                    print("\(app): \(policy.name) (media.role '\(role)' is listed there; \(policy.configuration))")
                    return
                }
            }
            if let role, let name = set.fallbackByRole[role], let policy = set.policy(named: name) {
                print("\(app): \(name) (no rule names it; it is the fallback for media.role '\(role)'; \(policy.configuration))")
            } else {
                print("\(app): no policy (no rule names it\(role.map { " and no policy is the fallback for media.role '\($0)'" } ?? ""); its streams mix with everything and are never touched)")
            }
        }
    }
}
