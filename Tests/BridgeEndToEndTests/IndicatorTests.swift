// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// `audiosession-indicator` driven as a panel drives it, through `busctl` only: the item's properties
/// (`org.kde.StatusNotifierItem`) and its menu (`com.canonical.dbusmenu` `GetLayout` and `Event`). Each
/// click is checked on the bridge and on the server.
@Suite("The desktop indicator through busctl", .serialized, .threadOfItsOwn)
struct IndicatorTests {
    /// The indicator on a scenario's bus, read and clicked with busctl's JSON output.
    struct Panel {
        let scenario: Scenario
        let process: TestProcess
        var name: String { "org.kde.StatusNotifierItem-\(process.pid)-1" }

        init(_ scenario: Scenario, extraEnvironment: [String: String] = [:]) throws {
            self.scenario = scenario
            process = try scenario.server.spawn(BridgeDaemon.buildDirectory + "/audiosession-indicator", [],
                                                extraEnvironment: extraEnvironment)
            try waitUntil("the indicator on the bus (\(process.output))") { (try? busctl(["status", name]).status) == 0 }
        }

        /// busctl on the scenario's bus; what follows `--` is never an option (GetLayout's depth is -1).
        func busctl(_ arguments: [String], json: Bool = false) throws -> (status: Int32, output: String) {
            try TestProcess.run("busctl", ["--address=\(scenario.server.busAddress!)"] + (json ? ["--json=short"] : []) + ["--"] + arguments,
                                environment: scenario.server.environment)
        }

        /// A reply's `data`, from busctl's JSON.
        func json(_ arguments: [String]) throws -> Any? {
            let (status, output) = try busctl(arguments, json: true)
            guard status == 0 else { throw HarnessError("busctl \(arguments.joined(separator: " ")): \(output)") }
            return (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["data"]
        }

        /// A menu item as GetLayout gives it: its number, label, toggle state and children.
        struct Item {
            var id: Int
            var label: String
            var toggled: Bool?
            var children: [Item]

            init?(_ data: Any) {
                guard let fields = data as? [Any], fields.count == 3, let id = fields[0] as? Int,
                    let properties = fields[1] as? [String: [String: Any]], let children = fields[2] as? [[String: Any]]
                else { return nil }
                self.id = id
                label = properties["label"]?["data"] as? String ?? ""
                toggled = (properties["toggle-state"]?["data"] as? Int).map { $0 == 1 }
                self.children = children.compactMap { $0["data"].flatMap(Item.init) }
            }

            /// The item at the end of a path of labels (a label's start is enough).
            func find(_ path: [String]) -> Item? {
                guard let first = path.first else { return self }
                return children.first { $0.label.hasPrefix(first) }?.find(Array(path.dropFirst()))
            }
        }

        var menu: Item? {
            let reply = try? json(["call", name, "/MenuBar", "com.canonical.dbusmenu", "GetLayout", "iias", "0", "-1", "0"]) as? [Any]
            return reply.flatMap { $0.count == 2 ? Item($0[1]) : nil }
        }

        func click(_ path: [String]) throws {
            guard let item = menu?.find(path) else { throw HarnessError("no menu item \(path) in \(String(describing: menu))") }
            let (status, output) = try busctl(["call", name, "/MenuBar", "com.canonical.dbusmenu", "Event", "isvu",
                                               "\(item.id)", "clicked", "s", "", "0"])
            guard status == 0 else { throw HarnessError("Event clicked on \(path): \(output)") }
        }

        func property(_ property: String) -> Any? {
            try? json(["get-property", name, "/StatusNotifierItem", "org.kde.StatusNotifierItem", property])
        }

        var status: String? { property("Status") as? String }
        /// The tooltip's body.
        var tooltip: String { (property("ToolTip") as? [Any])?.last as? String ?? "" }

        var silentMode: Bool {
            (try? json(["get-property", "io.github.audiosession.Bridge1", "/io/github/audiosession/Bridge1",
                        "io.github.audiosession.Bridge1", "SilentMode"])) as? Bool ?? false
        }
    }

    @Test("the silent switch, Treat as and As detected act on the bridge, and the tooltip names a call that interrupts music",
          arguments: SoundServerKind.underTest)
    func menuActsOnTheBridge(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let panel = try Panel(scenario)
        defer { _ = panel.process.stop() }
        try waitUntil("the menu with its switch, off") { panel.menu?.find(["Silent mode"])?.toggled == false }
        #expect(panel.status == "Passive")
        #expect(panel.property("Category") as? String == "SystemServices")

        // A game (role game, so ambient): silent mode mutes it.
        try scenario.server.play(app: "Game", role: "game")
        let game = try scenario.server.reportedStream(of: "Game")
        try waitUntil("the game in the menu") { panel.menu?.find(["Game"]) != nil }
        try panel.click(["Silent mode"])
        try waitUntil("silent mode on the bridge") { panel.silentMode }
        try waitUntil("the game muted by silent mode") { try scenario.muted(game) == true }
        try waitUntil("the switch checked and the item active") { panel.menu?.find(["Silent mode"])?.toggled == true && panel.status == "Active" }
        #expect(panel.tooltip.contains("Silent mode is on"))

        // Treated as a media player (playback), silent mode leaves it alone; as detected, it is muted again.
        let file = scenario.server.root + "/config/audiosession/policies/treat-as-game.toml"
        try panel.click(["Game", "Treat as", "media-player"])
        try waitUntil("the game heard as a media player (\(panel.process.output))") { try scenario.muted(game) == false }
        #expect(FileManager.default.fileExists(atPath: file))
        try waitUntil("media-player checked for the game") { panel.menu?.find(["Game", "Treat as", "media-player"])?.toggled == true }
        try panel.click(["Game", "Treat as", "As detected"])
        try waitUntil("the game muted again as detected") { try scenario.muted(game) == true }
        #expect(!FileManager.default.fileExists(atPath: file))
        try panel.click(["Silent mode"])
        try waitUntil("silent mode off, the game heard") { try !panel.silentMode && scenario.muted(game) == false }

        // A call interrupts music: the tooltip says so, in words.
        try scenario.server.play(app: "Music", role: "music")
        let music = try scenario.server.reportedStream(of: "Music")
        try scenario.server.play(app: "Softphone", role: "phone")
        try waitUntil("the music muted by the call") { try scenario.muted(music) == true }
        try waitUntil("the tooltip naming the call (\(panel.tooltip))") {
            panel.tooltip.contains("Music (Music) silenced by a call in Softphone")
        }
        #expect(panel.status == "Active")

        // The bridge goes and comes back: the indicator says so, then picks up again.
        _ = scenario.daemon.terminate()
        try waitUntil("the indicator saying the bridge is not running") { panel.tooltip == "audiosessiond is not running" }
        try scenario.daemon.restart()
        try waitUntil("the indicator following the bridge again (\(panel.tooltip))") { panel.tooltip.contains("by a call in Softphone") }
    }

    @Test("a user's own file of the same name is never replaced, a folder that cannot be written is told in the menu, and Show timeline draws and opens the picture",
          arguments: SoundServerKind.underTest([.pulseaudio]))
    func faultsAreTold(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let folder = scenario.server.root + "/config/audiosession/policies"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let own = "schema = 1\nlike = \"game\"\n[match]\napplication-names = [\"Game\"]\n"
        try own.write(toFile: folder + "/treat-as-game.toml", atomically: true, encoding: .utf8)
        // xdg-open stands in for the desktop's viewer: it notes what it was asked to open. The note is
        // written beside and renamed into place, so that once it is there it is whole (the shell makes
        // the file of a redirection before it writes the line into it).
        let bin = scenario.server.root + "/bin"
        let opened = scenario.server.root + "/opened"
        try ProgramFiles.write(script: "#!/bin/sh\necho \"$1\" > '\(opened).new' && mv '\(opened).new' '\(opened)'\n",
                               to: bin + "/xdg-open")
        let path = bin + ":" + (scenario.server.environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let panel = try Panel(scenario, extraEnvironment: ["PATH": path])
        defer { _ = panel.process.stop() }
        try scenario.server.play(app: "Game", role: "game")
        try waitUntil("the game in the menu") { panel.menu?.find(["Game"]) != nil }
        try panel.click(["Show timeline"])
        try waitUntil("the picture opened (\(panel.process.output))") { FileManager.default.fileExists(atPath: opened) }
        let picture = try String(contentsOfFile: opened, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let svg = try String(contentsOfFile: picture, encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("Game"), "the timeline shows the game's lane")
        try panel.click(["Game", "Treat as", "media-player"])
        try waitUntil("the menu telling that the file is the user's (\(String(describing: panel.menu?.children.first?.label)))") {
            panel.menu?.children.first?.label.contains("is your own file") == true
        }
        #expect(try String(contentsOfFile: folder + "/treat-as-game.toml", encoding: .utf8) == own)
        try panel.click(["Game", "Treat as", "As detected"])
        #expect(FileManager.default.fileExists(atPath: folder + "/treat-as-game.toml"), "As detected leaves the user's file")

        // The folder's place taken by a file: nothing can be written there.
        try FileManager.default.removeItem(atPath: folder)
        try "".write(toFile: folder, atomically: true, encoding: .utf8)
        try panel.click(["Game", "Treat as", "media-player"])
        try waitUntil("the menu telling that the folder cannot be written") {
            panel.menu?.children.first?.label.hasPrefix("cannot write \(folder)/treat-as-game.toml") == true
        }
        #expect(panel.process.output.contains("cannot write"), "the log says it too")
    }
}
