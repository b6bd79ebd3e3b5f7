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
    /// `audiosessionctl policy list`: the policies in force, in precedence order.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the policies along the search path, first match first.")
        @OptionGroup var path: PolicyPathOptions

        func run() throws {
            let set = try path.load()
            let rows = set.policies.map { policy in
                [policy.name, policy.configuration.description, policy.activation.rawValue,
                 set.fallbackByRole.filter { $0.value == policy.name }.keys.sorted().joined(separator: ",")]
            }
            Table.print(["POLICY", "SESSION", "ACTIVATION", "FALLBACK FOR ROLES"], rows)
        }
    }
}
