// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import PulseAudioClient

/// Coexistence with PulseAudio's own role policy. `module-role-cork` and `module-role-ducking` cork
/// and duck by role without telling anyone, and would act a second time on streams the bridge
/// already mutes or ducks. So while the bridge runs it is the only one: it unloads them when it
/// connects, remembers them in its state folder, and loads them again, with their arguments, when
/// it stops (or on its next start, if it was killed and finds them remembered).
public final class RoleModules {
    public static let names: Set<String> = ["module-role-cork", "module-role-ducking"]
    let adapter: ServerAdapter
    let recordPath: String
    /// The modules the bridge unloaded: name and argument.
    public private(set) var unloaded: [(name: String, argument: String)] = []

    public init(adapter: ServerAdapter, stateDirectory: String) {
        self.adapter = adapter
        recordPath = stateDirectory + "/unloaded-modules.json"
        if let data = FileManager.default.contents(atPath: recordPath),
            let list = try? JSONDecoder().decode([[String]].self, from: data)
        {
            unloaded = list.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        }
    }

    /// Unloads the role modules the server has loaded (on the loop thread, once connected).
    public func takeOver() {
        guard let context = adapter.currentContext else { return }
        context.modules { [self] result in
            let loaded = ((try? result.get()) ?? []).filter { Self.names.contains($0.name) }
            guard !loaded.isEmpty else { return }
            for module in loaded where !unloaded.contains(where: { $0.name == module.name && $0.argument == module.argument }) {
                unloaded.append((module.name, module.argument))
            }
            save()  // remembered before they go, so that a killed bridge's successor loads them again
            for module in loaded { context.unloadModule(module.index) { _ in } }
        }
    }

    /// Loads the unloaded modules again, then calls `done` (on the loop thread).
    public func handBack(_ done: @escaping () -> Void) {
        guard let context = adapter.currentContext, !unloaded.isEmpty else { return done() }
        var remaining = unloaded.count
        for module in unloaded {
            context.loadModule(module.name, argument: module.argument) { [self] _ in
                remaining -= 1
                if remaining == 0 {
                    unloaded = []
                    try? FileManager.default.removeItem(atPath: recordPath)
                    done()
                }
            }
        }
    }

    private func save() {
        let list = unloaded.map { [$0.name, $0.argument] }
        if let data = try? JSONEncoder().encode(list) {
            _ = FileManager.default.createFile(atPath: recordPath, contents: data)
        }
    }
}
