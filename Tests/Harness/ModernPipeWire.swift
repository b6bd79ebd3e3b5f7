// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A newer PipeWire and WirePlumber unpacked into a private prefix by `scripts/fetch-pipewire.sh`
/// (run by `make test`), never installed over the system's packages. Its programs run with the
/// prefix's libraries, SPA plugins, modules and configuration; sid's (1.6) also through the prefix's
/// own loader and C library, which the system's programs never see.
public struct ModernPipeWire: Sendable {
    /// Which release: the stack's PipeWire and WirePlumber versions.
    public enum Release: String, Sendable {
        /// PipeWire 1.4.2 with WirePlumber 0.5.8, from bookworm-backports.
        case v1_4 = "1.4"
        /// PipeWire 1.6.9 with WirePlumber 0.5.18, from sid (with sid's C library).
        case v1_6 = "1.6"
    }

    public let release: Release
    /// The prefix: `.build/pipewire-<release>/prefix` of the package, or `AUDIOSESSION_PIPEWIRE_PREFIX`
    /// (1.4) / `AUDIOSESSION_PIPEWIRE_1_6_PREFIX` (1.6).
    public let prefix: String
    /// The prefix's multiarch library folder (`usr/lib/x86_64-linux-gnu`).
    public let libraries: String

    /// The prefix `make test` prepared; throws with what to run when it is missing.
    public static func installed(_ release: Release) throws -> ModernPipeWire {
        let variable = release == .v1_4 ? "AUDIOSESSION_PIPEWIRE_PREFIX" : "AUDIOSESSION_PIPEWIRE_1_6_PREFIX"
        let prefix = ProcessInfo.processInfo.environment[variable] ?? Repository.root + "/.build/pipewire-\(release.rawValue)/prefix"
        guard FileManager.default.fileExists(atPath: prefix + "/.complete") else {
            throw HarnessError("PipeWire \(release.rawValue) is not unpacked at \(prefix): run `make test` or `scripts/fetch-pipewire.sh \(release.rawValue)`")
        }
        let lib = prefix + "/usr/lib"
        let multiarch = (try? FileManager.default.contentsOfDirectory(atPath: lib))?
            .first { $0.hasSuffix("-linux-gnu") }
        guard let multiarch else { throw HarnessError("no multiarch library folder in \(lib)") }
        return ModernPipeWire(release: release, prefix: prefix, libraries: "\(lib)/\(multiarch)")
    }

    /// The prefix's own dynamic loader, where it brings its C library (sid's), else nil.
    private var loader: String? {
        let path = libraries + "/ld-linux-x86-64.so.2"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// How to start one of the prefix's programs (`pipewire`, `wireplumber`, `pipewire-pulse`,
    /// `pw-dump`…): the executable and the arguments that come before the program's own. With the
    /// prefix's loader, the program runs through it under its own name (`pipewire-pulse` is `pipewire`
    /// under another name, so `--argv0` matters).
    public func command(_ program: String) -> (executable: String, leading: [String]) {
        let binary = "\(prefix)/usr/bin/\(program)"
        guard let loader else { return (binary, []) }
        return (loader, ["--library-path", "\(libraries):/usr/lib/x86_64-linux-gnu", "--argv0", program, binary])
    }

    /// What a program of the prefix needs in its environment to use the prefix's parts only. With the
    /// prefix's loader, the libraries come through it, not `LD_LIBRARY_PATH`, which every child
    /// process (with the system's loader) would inherit.
    public var environment: [String: String] {
        var environment = [
            "SPA_PLUGIN_DIR": libraries + "/spa-0.2",
            "SPA_DATA_DIR": prefix + "/usr/share/spa-0.2",
            "PIPEWIRE_MODULE_DIR": libraries + "/pipewire-0.3",
            "PIPEWIRE_CONFIG_DIR": prefix + "/usr/share/pipewire",
            "WIREPLUMBER_MODULE_DIR": libraries + "/wireplumber-0.5",
            "WIREPLUMBER_DATA_DIR": prefix + "/usr/share/wireplumber",
            "WIREPLUMBER_CONFIG_DIR": prefix + "/usr/share/wireplumber",
        ]
        if loader == nil { environment["LD_LIBRARY_PATH"] = libraries }
        return environment
    }
}
