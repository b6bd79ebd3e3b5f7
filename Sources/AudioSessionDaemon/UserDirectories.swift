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
}
