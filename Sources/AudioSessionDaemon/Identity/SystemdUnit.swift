// SPDX-License-Identifier: Apache-2.0

/// The systemd unit a desktop started an app in, read from the process's cgroup path. GNOME, KDE and
/// Flatpak name them after the app's desktop id (the XDG convention for systemd units):
/// `app[-<launcher>]-<desktop id>-<random>.scope` and `app[-<launcher>]-<desktop id>[@<random>].service`,
/// with `-` in the id escaped as `\x2d`.
struct SystemdUnit: Hashable, Sendable {
    /// The unit's name, such as `app-gnome-org.gnome.Rhythmbox3-4242.scope`.
    var name: String
    /// What started it (`gnome`, `flatpak`, …), when the name says.
    var launcher: String?
    /// The desktop id it names.
    var desktopID: String

    /// The Flatpak app id, when Flatpak started the unit.
    var flatpakID: String? { launcher == "flatpak" ? desktopID : nil }

    /// The app unit of a `/proc/PID/cgroup` text: the unified (`0::`) hierarchy's path, else the
    /// `name=systemd` one; the innermost `app-…` unit of that path.
    static func of(cgroupText text: String) -> SystemdUnit? {
        var unified: Substring?
        var named: Substring?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("0::") { unified = line.dropFirst(3) }
            if line.contains(":name=systemd:"), let colon = line.lastIndex(of: ":") { named = line[line.index(after: colon)...] }
        }
        for path in [unified, named].compactMap({ $0 }) {
            if let unit = path.split(separator: "/").reversed().lazy.compactMap({ SystemdUnit(unitName: String($0)) }).first {
                return unit
            }
        }
        return nil
    }

    /// Reads an app unit's name; nil for any other unit (`app.slice`, `session-2.scope`, …).
    init?(unitName: String) {
        var rest: Substring
        if unitName.hasSuffix(".scope") {
            rest = unitName.dropLast(".scope".count)
            // A scope ends in "-<random>".
            guard let dash = rest.lastIndex(of: "-") else { return nil }
            rest = rest[..<dash]
        } else if unitName.hasSuffix(".service") {
            rest = unitName.dropLast(".service".count)
            if let at = rest.firstIndex(of: "@") { rest = rest[..<at] }
        } else {
            return nil
        }
        guard rest.hasPrefix("app-") else { return nil }
        rest = rest.dropFirst(4)
        // The id's own dashes are escaped, so a dash left separates the launcher from the id.
        if let dash = rest.firstIndex(of: "-") {
            launcher = Self.unescape(rest[..<dash])
            rest = rest[rest.index(after: dash)...]
        } else {
            launcher = nil
        }
        guard !rest.isEmpty else { return nil }
        name = unitName
        desktopID = Self.unescape(rest)
    }

    /// Undoes systemd's escaping: `\xNN` becomes the byte NN.
    static func unescape(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count, utf8[index + 1] == UInt8(ascii: "x"),
                let value = UInt8(String(decoding: utf8[(index + 2)...(index + 3)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
