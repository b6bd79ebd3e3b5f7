// SPDX-License-Identifier: Apache-2.0
import AudioSessionDaemon
import AudioSessionIPC
import ArgumentParser
import DBusKit
import Foundation

/// The real names the shell completions offer, read when the user presses Tab: never an error, at
/// worst no names.
enum CompletionNames {
    /// The policies along the installed search path.
    static let policies = CompletionKind.custom { _, _, _ in
        (PolicyLoader(base: []).load().set?.policies.map(\.name) ?? []).sorted()
    }

    /// Every app a policy names: desktop ids, Flatpak ids, binaries and application names.
    static let apps = CompletionKind.custom { _, _, _ in
        let policies = PolicyLoader(base: []).load().set?.policies ?? []
        return Set(policies.flatMap { policy in
            let match = policy.match
            return match.desktopIDs.union(match.flatpakIDs).union(match.binaries).union(match.applicationNames)
        }).sorted()
    }

    /// The app ids with a decided record permission, and those of the bridge's sessions now.
    static let permissionApps = CompletionKind.custom { _, _, _ in
        var names = Set<String>()
        let file = EffectJournal.defaultDirectory + "/permissions.json"
        if let data = FileManager.default.contents(atPath: file),
           let decided = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            names.formUnion(decided.keys)
        }
        if let connection = try? BusConnection(.session),
           let reply = try? connection.call(.methodCall(destination: BusContract.busName, path: BusContract.managerPath,
                                                        interface: BusContract.managerInterface, member: "Snapshot", [])),
           let text = reply.arguments.first?.stringValue,
           let snapshot = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] {
            for session in snapshot["sessions"] as? [[String: Any]] ?? [] {
                if let app = session["app"] as? String { names.insert(app) }
            }
        }
        return names.sorted()
    }
}
