// SPDX-License-Identifier: Apache-2.0

/// What a menu item does when clicked.
public enum MenuCommand: Equatable, Sendable {
    /// Sets the bridge's silent switch.
    case setSilentMode(Bool)
    /// Writes a user policy file that governs the app by `policy`.
    case treatAs(app: String, policy: String)
    /// Removes the file that `treatAs` wrote for the app.
    case asDetected(app: String)
    /// Draws the last ten minutes and opens the picture.
    case showTimeline
}

/// An item of the indicator's menu. `key` names it for as long as it means the same thing, so that
/// its number in the menu stays the same from one layout to the next.
public struct MenuItem: Equatable, Sendable {
    /// A check or radio item's kind and state (dbusmenu's `toggle-type` and `toggle-state`).
    public enum Toggle: Equatable, Sendable {
        case checkmark(Bool)
        case radio(Bool)
    }

    public var key: String
    public var label: String
    public var isSeparator = false
    public var enabled = true
    public var toggle: Toggle?
    public var command: MenuCommand?
    public var children: [MenuItem] = []

    public init(key: String, label: String, enabled: Bool = true, toggle: Toggle? = nil, command: MenuCommand? = nil,
                children: [MenuItem] = []) {
        self.key = key
        self.label = label
        self.enabled = enabled
        self.toggle = toggle
        self.command = command
        self.children = children
    }

    /// A separator line.
    public static func separator(_ key: String) -> MenuItem {
        var item = MenuItem(key: "separator:" + key, label: "")
        item.isSeparator = true
        return item
    }
}
