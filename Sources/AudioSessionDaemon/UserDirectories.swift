// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Glibc

/// The user's base directories of the XDG specification.
enum UserDirectories {
    /// `$HOME`, else the home directory of the user's account.
    static var home: String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    static var configHome: String { ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? home + "/.config" }

    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    static var stateHome: String { ProcessInfo.processInfo.environment["XDG_STATE_HOME"] ?? home + "/.local/state" }

    /// `$XDG_CONFIG_DIRS`, else `/etc/xdg`: most important first.
    static var configDirectories: [String] { list("XDG_CONFIG_DIRS", default: ["/etc/xdg"]) }

    /// `$XDG_DATA_DIRS`, else `/usr/local/share` and `/usr/share`: most important first.
    static var dataDirectories: [String] { list("XDG_DATA_DIRS", default: ["/usr/local/share", "/usr/share"]) }

    /// A colon-separated list of absolute paths (relative ones are ignored, as the specification says).
    private static func list(_ variable: String, default fallback: [String]) -> [String] {
        let entries = (ProcessInfo.processInfo.environment[variable] ?? "").split(separator: ":").map(String.init)
            .filter { $0.hasPrefix("/") }
        return entries.isEmpty ? fallback : entries
    }
}
