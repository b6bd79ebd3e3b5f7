// SPDX-License-Identifier: Apache-2.0
import Foundation

/// PipeWire 1.4.2 and WirePlumber 0.5.8 unpacked into a private prefix by
/// `scripts/fetch-pipewire-1.4.sh` (run by `make test`), never installed over the system's packages.
/// Its programs run with the prefix's libraries, SPA plugins, modules and configuration.
public struct ModernPipeWire: Sendable {
    /// The prefix: `.build/pipewire-1.4/prefix` of the package, or `AUDIOSESSION_PIPEWIRE_PREFIX`.
    public let prefix: String
    /// The prefix's multiarch library folder (`usr/lib/x86_64-linux-gnu`).
    public let libraries: String

    /// The prefix `make test` prepared; throws with what to run when it is missing.
    public static func installed() throws -> ModernPipeWire {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        let prefix = ProcessInfo.processInfo.environment["AUDIOSESSION_PIPEWIRE_PREFIX"]
            ?? packageRoot + "/.build/pipewire-1.4/prefix"
        guard FileManager.default.fileExists(atPath: prefix + "/.complete") else {
            throw HarnessError("PipeWire 1.4 is not unpacked at \(prefix): run `make test` or `scripts/fetch-pipewire-1.4.sh`")
        }
        let lib = prefix + "/usr/lib"
        let multiarch = (try? FileManager.default.contentsOfDirectory(atPath: lib))?
            .first { $0.hasSuffix("-linux-gnu") }
        guard let multiarch else { throw HarnessError("no multiarch library folder in \(lib)") }
        return ModernPipeWire(prefix: prefix, libraries: "\(lib)/\(multiarch)")
    }

    /// The path of one of the prefix's programs (`pipewire`, `wireplumber`, `pipewire-pulse`, `pw-cli`…).
    public func executable(_ program: String) -> String { "\(prefix)/usr/bin/\(program)" }

    /// What a program of the prefix needs in its environment to use the prefix's parts only.
    public var environment: [String: String] {
        [
            "LD_LIBRARY_PATH": libraries,
            "SPA_PLUGIN_DIR": libraries + "/spa-0.2",
            "SPA_DATA_DIR": prefix + "/usr/share/spa-0.2",
            "PIPEWIRE_MODULE_DIR": libraries + "/pipewire-0.3",
            "PIPEWIRE_CONFIG_DIR": prefix + "/usr/share/pipewire",
            "WIREPLUMBER_MODULE_DIR": libraries + "/wireplumber-0.5",
            "WIREPLUMBER_DATA_DIR": prefix + "/usr/share/wireplumber",
            "WIREPLUMBER_CONFIG_DIR": prefix + "/usr/share/wireplumber",
        ]
    }
}
