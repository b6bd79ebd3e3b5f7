// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
@testable import AudioSessionDaemon
import AudioTestHarness
import Foundation
import PulseAudioClient
import ServerTestTraits
import Testing

/// The shell's readers of who an app is: systemd units, interpreters' scripts, desktop entries, and a
/// real process put into a unit (DESIGN §2, "Who an app is").
@Suite("App identity sources", .threadOfItsOwn)
struct AppIdentitySourcesTests {
    @Test("systemd units name the app's desktop id as GNOME, KDE and Flatpak start apps", arguments: [
        ("app-gnome-org.gnome.Rhythmbox3-4242.scope", "gnome", "org.gnome.Rhythmbox3"),
        ("app-gnome-firefox\\x2desr-3456.scope", "gnome", "firefox-esr"),
        ("app-flatpak-com.discordapp.Discord-123456.scope", "flatpak", "com.discordapp.Discord"),
        ("app-org.kde.konsole-1a2b3c4d.scope", nil, "org.kde.konsole"),
        ("app-org.kde.elisa@12345.service", nil, "org.kde.elisa"),
        ("app-gnome-org.gnome.Calls@autostart.service", "gnome", "org.gnome.Calls"),
        ("app-steam.service", nil, "steam"),
    ] as [(String, String?, String)])
    func unitNames(unit: String, launcher: String?, id: String) throws {
        let parsed = try #require(SystemdUnit(unitName: unit))
        #expect(parsed.launcher == launcher)
        #expect(parsed.desktopID == id)
        #expect(parsed.flatpakID == (launcher == "flatpak" ? id : nil))
    }

    @Test("units that are not an app's name none", arguments: ["app.slice", "session-2.scope", "user@1000.service",
                                                                "dbus.service", "app-.scope", "init.scope"])
    func otherUnits(unit: String) {
        #expect(SystemdUnit(unitName: unit) == nil)
    }

    @Test("the innermost app unit of the unified hierarchy, else of name=systemd")
    func cgroupFiles() {
        let unified = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Lollypop-99.scope\n"
        #expect(SystemdUnit.of(cgroupText: unified)?.desktopID == "org.gnome.Lollypop")
        let hybrid = "9:name=systemd:/user.slice/app-gnome-spotify-7.scope\n4:memory:/x\n0::/\n"
        #expect(SystemdUnit.of(cgroupText: hybrid)?.desktopID == "spotify")
        let nested = "0::/user.slice/app.slice/app-steam@1.service/app-gnome-steam-8.scope/game\n"
        #expect(SystemdUnit.of(cgroupText: nested)?.desktopID == "steam")
        #expect(SystemdUnit.of(cgroupText: "0::/user.slice/user-1000.slice/session-2.scope\n") == nil)
    }

    @Test("an interpreter's script names the app", arguments: [
        (["/usr/bin/python3", "/usr/bin/lollypop"], "lollypop"),
        (["python3.11", "-u", "-W", "ignore", "/opt/tunes/main.py", "--verbose"], "main"),
        (["python3", "-m", "orca"], "orca"),
        (["/usr/bin/gjs", "-I", "/usr/share/x", "/usr/share/org.gnome.Sound/app.js"], "app"),
        (["python3", "-c", "print(1)"], nil),
        (["python3"], nil),
        (["/usr/bin/mpv", "song.ogg"], nil),
        (["bash", "/usr/bin/player.sh"], nil),
    ] as [([String], String?)])
    func scripts(arguments: [String], script: String?) {
        #expect(InterpreterScript.script(arguments: arguments) == script)
    }

    @Test("a desktop entry gives its categories and the program its Exec runs")
    func desktopEntries() throws {
        let text = """
            [Desktop Entry]
            Type=Application
            Name=Ringline
            Exec=env GDK_BACKEND=x11 "/opt/ringline/ringline" --call %u
            Categories=Network;Telephony;

            [Desktop Action New]
            Exec=other
            Categories=Game;
            """
        let entry = try #require(DesktopEntry(id: "org.example.Ringline", text: text))
        #expect(entry.categories == ["Network", "Telephony"])
        #expect(entry.program == "ringline")
        #expect(DesktopEntry(id: "gone", text: "[Desktop Entry]\nHidden=true\nCategories=Game;\n") == nil)
        #expect(DesktopEntry(id: "link", text: "[Desktop Entry]\nType=Link\nURL=https://example.org\n") == nil)
    }

    @Test("entries are found by id, most trusted first, then by program; an earlier folder wins, and a new one is seen")
    func entryIndex() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("entries-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home/applications"), system = root.appendingPathComponent("system/applications")
        for folder in [home, system.appendingPathComponent("kde4")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        func write(_ folder: URL, _ name: String, _ exec: String, _ categories: String) throws {
            try "[Desktop Entry]\nType=Application\nExec=\(exec)\nCategories=\(categories)\n"
                .write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write(system, "org.example.Tunes.desktop", "/usr/bin/tunes %U", "AudioVideo;Player;")
        try write(home, "org.example.Tunes.desktop", "tunes", "Game;")
        try write(system.appendingPathComponent("kde4"), "talk.desktop", "talk", "Telephony;")
        var index = DesktopEntryIndex(folders: [home.path, system.path])
        let byUnit = index.entry(for: AppIdentity(name: "x", desktopID: "kde4-talk", unitDesktopID: "org.example.Tunes"))
        #expect(byUnit == DesktopEntryFacts(id: "org.example.Tunes", categories: ["Game"], foundBy: .systemdUnit))
        #expect(index.entry(for: AppIdentity(name: "x", desktopID: "kde4-talk.desktop"))?.categories == ["Telephony"])
        #expect(index.entry(for: AppIdentity(name: "x", binary: "python3", script: "talk"))?.foundBy == .script)
        #expect(index.entry(for: AppIdentity(name: "x", binary: "Tunes"))?.id == "org.example.Tunes")
        #expect(index.entry(for: AppIdentity(name: "x", binary: "chatter")) == nil)
        try write(system, "python3.11.desktop", "/usr/bin/python3.11", "Development;")
        #expect(index.entry(for: AppIdentity(name: "x", binary: "python3.11", script: "lollypop")) == nil,
                "a script's app is not the interpreter's entry")
        try write(home, "chatter.desktop", "chatter", "Chat;")
        #expect(index.entry(for: AppIdentity(name: "x", binary: "chatter"))?.categories == ["Chat"])
    }

    @Test("an app is recognised once for what it is recognised from, and again once the entries were read again")
    func recognisedOnce() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("recognised-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var recognizer = AppRecognizer(environment: ["XDG_DATA_HOME": root.path, "XDG_DATA_DIRS": root.appendingPathComponent("none").path])
        let stream = ["application.name": "Chatter", "application.process.binary": "chatter"]
        let first = recognizer.identity(stream: stream, client: [:], process: ProcessFacts())
        #expect(first.desktopEntry == nil)
        #expect(recognizer.identity(stream: [:], client: stream, process: ProcessFacts()) == first,
                "the client's properties count as the stream's")
        #expect(recognizer.identity(stream: ["application.name": "Chatter"], client: [:], process: ProcessFacts(executable: "chatter")).binary
                == "chatter")
        #expect(recognizer.identity(stream: ["application.name": "Chatter"], client: [:], process: ProcessFacts(executable: "talk")).binary
                == "talk", "another process is another app")
        try "[Desktop Entry]\nType=Application\nExec=chatter\nCategories=Chat;\n"
            .write(to: folder.appendingPathComponent("chatter.desktop"), atomically: true, encoding: .utf8)
        let installed = recognizer.identity(stream: stream, client: [:], process: ProcessFacts())
        #expect(installed.desktopEntry?.id == "chatter", "an entry installed since is not hidden by the app recognised before")
        #expect(installed.key == "chatter")
    }

    /// A desktop-entry index and its folder watch, as the bridge keeps them: used on the loop thread.
    final class WatchedIndex: @unchecked Sendable {
        var index: DesktopEntryIndex
        var watch: FolderWatch?
        var reports = 0
        init(_ index: DesktopEntryIndex) { self.index = index }
    }

    @Test("watched, the entries are read again on a folder's report only: an entry added, and a folder made later")
    func watchedEntryIndex() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("watched-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: root) }
        let system = root.appendingPathComponent("system/applications")
        let home = root.appendingPathComponent("home/.local/share/applications")  // made later
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        // Written while no child of the test process starts: a child's copy of the descriptor would
        // close later and report the file again.
        func write(_ folder: URL, _ name: String, _ exec: String, _ categories: String) throws {
            try TestProcess.writeWithNoChildStarting("[Desktop Entry]\nType=Application\nExec=\(exec)\nCategories=\(categories)\n",
                                                     to: folder.appendingPathComponent(name).path)
        }
        try write(system, "org.example.Tunes.desktop", "tunes", "AudioVideo;Player;")
        let loop = try PulseLoop()
        loop.start()
        defer { loop.stop() }
        let box = WatchedIndex(DesktopEntryIndex(folders: [home.path, system.path]))
        try await loop.run {
            box.index.isWatched = true
            box.watch = FolderWatch(loop: loop, folders: box.index.folders) {
                box.reports += 1
                box.index.changeReported()
            }
        }
        func entry(_ app: AppIdentity) async throws -> DesktopEntryFacts? { try await loop.run { box.index.entry(for: app) } }
        func reports() async throws -> Int { try await loop.run { box.reports } }
        // The kernel queues a file's events as it is made; one write (a file written whole, then renamed
        // into place) may come as more than one report when the loop wakes between its events. Once
        // the loop has polled again after the write and handed out what it found, all of them are read.
        func allQueuedEventsRead() async throws { try await loop.afterNextPoll() }
        #expect(try await entry(AppIdentity(name: "x", binary: "tunes"))?.id == "org.example.Tunes")
        try write(system, "chatter.desktop", "chatter", "Chat;")
        try await waitUntil("the report of the new entry") { try await reports() > 0 }
        #expect(try await entry(AppIdentity(name: "x", binary: "chatter"))?.categories == ["Chat"])
        // The missing folder's nearest ancestor is watched for the next folder on the way only: other
        // files made there (a busy folder) report nothing. The count is taken once the new entry's
        // last events are read, and looked at again once the busy file's would have been.
        try await allQueuedEventsRead()
        let beforeBusy = try await reports()
        try TestProcess.writeWithNoChildStarting("busy", to: root.appendingPathComponent("unrelated.txt").path)
        try await allQueuedEventsRead()
        #expect(try await reports() == beforeBusy, "a file made in the ancestor is no change of the folders")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try write(home, "org.example.Tunes.desktop", "tunes", "Game;")
        try await waitUntil("the entry in the folder made later") {
            try await entry(AppIdentity(name: "x", desktopID: "org.example.Tunes"))?.categories == ["Game"]
        }
        // Without a report the folders are not looked at: an entry written with the watch gone is not seen.
        // A last report of the entry before (read above) is read first, with the watch still there.
        try await allQueuedEventsRead()
        try await loop.run { box.watch = nil }
        _ = try await entry(AppIdentity(name: "x", binary: "tunes"))
        let seen = try await reports()
        try write(system, "late.desktop", "late", "Game;")
        #expect(try await entry(AppIdentity(name: "x", binary: "late")) == nil)
        #expect(try await reports() == seen)
    }

    @Test("a real process in an app's unit is that app; a client naming another's process is not believed")
    func realProcessInUnit() throws {
        let unit = try AppScope(desktopID: "org.example.Ringline")
        defer { unit.remove() }
        let sleeper = try unit.start("/bin/sleep", ["30"], environment: [:], logDirectory: NSTemporaryDirectory())
        defer { _ = sleeper.stop() }
        try waitUntil("sleep to run in its unit") { AppLookup.app(ofProcess: sleeper.pid, environment: [:])?.unit == unit.name }
        let vouched = ProcessFacts.read(["pipewire.sec.pid": "\(sleeper.pid)"])
        #expect(vouched.unit?.desktopID == "org.example.Ringline")
        #expect(vouched.executable == "sleep")
        let declared = ProcessFacts.read(["application.process.id": "\(sleeper.pid)",
                                          "application.process.binary": "sleep"])
        #expect(declared.unit?.desktopID == "org.example.Ringline", "its declared binary is its executable")
        let borrowed = ProcessFacts.read(["application.process.id": "\(sleeper.pid)",
                                          "application.process.binary": "impostor"])
        #expect(borrowed.unit == nil, "a process id whose executable is another binary is not believed")
    }
}
