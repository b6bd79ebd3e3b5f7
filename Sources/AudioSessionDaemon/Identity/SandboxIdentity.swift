// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Who a caller is when it runs in a Flatpak sandbox: the app id in `/proc/PID/root/.flatpak-info`
/// of the connection's process, as xdg-desktop-portal reads it (a sandboxed app reaches the bus
/// through xdg-dbus-proxy, which runs in the app's sandbox too). Nil for a process outside one.
enum SandboxIdentity {
    static func flatpakID(ofProcess pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/root/.flatpak-info") else { return nil }
        return flatpakID(inInfo: String(decoding: data, as: UTF8.self))
    }

    /// The `name` key of the `[Application]` group of a `.flatpak-info` keyfile.
    static func flatpakID(inInfo text: String) -> String? {
        var group = ""
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") {
                group = String(line.prefix { $0 != "]" }) + "]"
            } else if group == "[Application]", line.hasPrefix("name") {
                let value = line.dropFirst(4).drop { $0 == " " }
                guard value.first == "=" else { continue }
                let name = value.dropFirst().trimmingPrefix(" ")
                return name.isEmpty ? nil : String(name)
            }
        }
        return nil
    }
}
