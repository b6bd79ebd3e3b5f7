// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// A real host for the indicator: xfce4-panel with its status tray plugin (which is also the desktop's
/// `org.kde.StatusNotifierWatcher`) on a private X display. The panel shows the item's icon; the
/// screenshot is kept in `.build/test-artifacts`.
@Suite("The indicator in xfce4-panel", .serialized, .threadOfItsOwn)
struct PanelHostTests {
    static let panelHeight = 32

    /// A panel at the top of the screen with the status tray alone, as xfconf reads it.
    static let panelConfiguration = """
        <?xml version="1.0" encoding="UTF-8"?>
        <channel name="xfce4-panel" version="1.0">
          <property name="configver" type="int" value="2"/>
          <property name="panels" type="array">
            <value type="int" value="1"/>
            <property name="panel-1" type="empty">
              <property name="position" type="string" value="p=6;x=0;y=0"/>
              <property name="length" type="uint" value="100"/>
              <property name="position-locked" type="bool" value="true"/>
              <property name="size" type="uint" value="\(panelHeight)"/>
              <property name="plugin-ids" type="array"><value type="int" value="1"/></property>
            </property>
          </property>
          <property name="plugins" type="empty">
            <property name="plugin-1" type="string" value="systray"/>
          </property>
        </channel>
        """

    /// Takes a picture of the panel's strip; returns its file and how many of its pixels are dark (an
    /// icon on the light panel; the empty panel has none).
    ///
    /// The picture is one `GetImage` of the root window (ImageMagick's `import` without `-descend`),
    /// which the X server carries out whole. The panel's windows have a depth of 32 on a root of 24, and
    /// `xwd -root` then reads each such window's area on its own, after listing them: a window the
    /// panel unmapped or resized in between (most likely its tray adding the item's icon) failed the
    /// read with `BadMatch` under `make stress`.
    static func shoot(_ display: String, _ server: SoundServer, to file: String) throws -> Int {
        let arguments = ["-display", display, "-silent", "-window", "root", "-crop", "1024x\(panelHeight)+0+0", "+repage", "png:\(file)"]
        let (status, output) = try TestProcess.run("/usr/bin/import", arguments, environment: server.environment)
        guard status == 0 else { throw HarnessError("screenshot: \(output)") }
        let (_, count) = try TestProcess.run("/usr/bin/convert", [file, "-colorspace", "Gray", "-threshold", "50%", "-negate",
                                                                "-format", "%[fx:round(mean*w*h)]", "info:"],
                                            environment: server.environment)
        return Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    @Test("xfce4-panel's status tray shows the indicator's icon while something is silenced, also after the panel restarts",
          arguments: SoundServerKind.underTest([.pulseaudio]))
    func iconAppears(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let display = try server.startDisplay()
        let channel = server.root + "/config/xfce4/xfconf/xfce-perchannel-xml"
        try FileManager.default.createDirectory(atPath: channel, withIntermediateDirectories: true)
        try Self.panelConfiguration.write(toFile: channel + "/xfce4-panel.xml", atomically: true, encoding: .utf8)
        let panel = try server.spawn("xfce4-panel", [], extraEnvironment: ["DISPLAY": display])
        let busctl = { (arguments: [String]) in
            try TestProcess.run("busctl", ["--address=\(server.busAddress!)", "--"] + arguments, environment: server.environment)
        }
        try waitUntil("the panel's tray to be the watcher (\(panel.output.suffix(300)))", timeout: .seconds(30)) {
            try busctl(["status", "org.kde.StatusNotifierWatcher"]).status == 0
        }
        let artifacts = Repository.root + "/.build/test-artifacts"
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        // The watcher is there before the panel has painted its strip (Xvfb's root is black): the empty
        // panel, once drawn, has no dark pixels, so a dark one later is the icon.
        try waitUntil("the empty panel drawn") { try Self.shoot(display, server, to: artifacts + "/xfce4-panel-empty.png") == 0 }

        let indicator = try IndicatorTests.Panel(scenario)
        defer { _ = indicator.process.stop() }
        try waitUntil("the item registered with the panel") {
            try busctl(["get-property", "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                        "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"]).output.contains(indicator.name)
        }
        // The tray hides a Passive item; silent mode makes it Active.
        try waitUntil("the menu") { indicator.menu?.find(["Silent mode"]) != nil }
        try indicator.click(["Silent mode"])
        try waitUntil("the item active") { indicator.status == "Active" }
        let shot = artifacts + "/xfce4-panel-indicator.png"
        try waitUntil("the icon drawn in the panel", timeout: .seconds(20)) { try Self.shoot(display, server, to: shot) >= 20 }

        // The panel restarts: the indicator waits for the new watcher and registers again.
        _ = panel.stop()
        try waitUntil("the watcher gone") { try busctl(["status", "org.kde.StatusNotifierWatcher"]).status != 0 }
        let again = try server.spawn("xfce4-panel", [], extraEnvironment: ["DISPLAY": display])
        defer { _ = again.stop() }
        try waitUntil("the item registered with the new panel (\(indicator.process.output.suffix(300)))", timeout: .seconds(30)) {
            try busctl(["get-property", "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                        "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"]).output.contains(indicator.name)
        }
        try waitUntil("the icon drawn in the new panel", timeout: .seconds(20)) { try Self.shoot(display, server, to: shot) >= 20 }
    }
}
