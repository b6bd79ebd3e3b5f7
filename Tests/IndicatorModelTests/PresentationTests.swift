// SPDX-License-Identifier: Apache-2.0
import IndicatorModel
import Testing

/// What the indicator shows for a state of the bridge, read from the bridge's own `Snapshot` form.
@Suite("The indicator's status, tooltip and menu")
struct PresentationTests {
    /// A snapshot of music (mpv, media-player) under `what`, with a call in Firefox and Orca speaking.
    static func snapshot(music what: String, silentMode: Bool = false) -> [String: Any] {
        let call: [String: Any] = ["session": "/s/1", "app": "Firefox", "policy": "browser-like", "mode": "voiceChat",
                                   "call": "recording", "active": true]
        let orca: [String: Any] = ["session": "/s/2", "app": "Orca", "policy": "screen-reader", "mode": "spokenAudio", "active": true]
        var music: [String: Any] = ["session": "/s/3", "app": "mpv", "policy": "media-player", "mode": "default", "active": true]
        var stream: [String: Any] = ["session": "/s/3", "corked": false]
        switch what {
        case "interrupted":
            music["active"] = false
            music["interruptedBy"] = ["/s/1"]
            stream["corked"] = true
        case "ducked":
            stream["duckLevel"] = 0.2
            stream["causes"] = ["ducker:/s/2"]
        case "waiting":
            music["active"] = false
            music["activation"] = "waiting"
            music["waitingFor"] = "/s/1"
            stream["corked"] = true
        default: break
        }
        return ["silentMode": silentMode, "sessions": [call, orca, music], "streams": [stream],
                "policies": ["media-player", "game", "voip"]]
    }

    static let cases: [(music: String, silent: Bool, status: Presentation.Status, line: String)] = [
        ("playing", false, .passive, "Nothing is silenced"),
        ("interrupted", false, .active, "Music (mpv) paused by a call in Firefox"),
        ("ducked", false, .active, "Music (mpv) ducked by Orca"),
        ("waiting", false, .active, "Music (mpv) waiting for a call in Firefox"),
        ("playing", true, .active, "Silent mode is on"),
    ]

    @Test("the status is Active while something is silenced or silent mode is on, and the tooltip says what, by whom",
          arguments: cases)
    func statusAndTooltip(music: String, silent: Bool, status: Presentation.Status, line: String) {
        let presentation = Presentation(BridgeState(snapshot: Self.snapshot(music: music, silentMode: silent)))
        #expect(presentation.status == status)
        #expect(presentation.tooltipBody == line)
        #expect(presentation.iconName == (silent ? "audio-volume-muted-symbolic" : status == .active ? "audio-volume-low-symbolic" : "audio-volume-high-symbolic"))
    }

    @Test("the menu has the switch, each app with its state and a Treat as submenu, and the timeline")
    func menu() {
        let presentation = Presentation(BridgeState(snapshot: Self.snapshot(music: "ducked")))
        let labels = presentation.menu.filter { !$0.isSeparator }.map(\.label)
        #expect(labels == ["Silent mode", "Firefox: playing", "mpv: ducked by Orca", "Orca: playing", "Show timeline"])
        #expect(presentation.menu[0].toggle == .checkmark(false))
        #expect(presentation.menu[0].command == .setSilentMode(true))
        let mpv = presentation.menu.first { $0.key == "app:mpv" }
        let treatAs = mpv?.children.first
        #expect(treatAs?.label == "Treat as")
        let choices = treatAs?.children ?? []
        #expect(choices.filter { !$0.isSeparator }.map(\.label) == ["media-player", "game", "voip", "As detected"])
        #expect(choices.first?.toggle == .radio(true), "the policy in force is the one checked")
        #expect(choices[1].command == .treatAs(app: "mpv", policy: "game"))
        #expect(choices.last?.command == .asDetected(app: "mpv"))
    }

    @Test("an app treated as another policy shows that policy checked, and its file's policy is no choice of its own")
    func treatedAs() {
        var state = BridgeState(snapshot: Self.snapshot(music: "interrupted"))
        state.policies.append("treat-as-mpv")
        let index = state.apps.firstIndex { $0.name == "mpv" }!
        state.apps[index].policy = "treat-as-mpv"
        state.apps[index].treatedAs = "game"
        let presentation = Presentation(state)
        let choices = presentation.menu.first { $0.key == "app:mpv" }?.children.first?.children ?? []
        #expect(choices.filter { $0.toggle == .radio(true) }.map(\.label) == ["game"])
        #expect(!choices.contains { $0.label == "treat-as-mpv" })
        #expect(presentation.tooltipBody == "Game (mpv) paused by a call in Firefox")
    }

    @Test("a fault is told at the top of the menu; without the bridge the menu says so")
    func faultsAndNoBridge() {
        let faulted = Presentation(BridgeState(snapshot: Self.snapshot(music: "playing")), notice: "cannot write x")
        #expect(faulted.menu.first?.label == "cannot write x")
        #expect(faulted.menu.first?.enabled == false)
        let gone = Presentation.bridgeNotRunning()
        #expect(gone.menu.map(\.label) == ["audiosessiond is not running"])
        #expect(gone.tooltipBody == "audiosessiond is not running")
        #expect(gone.status == .passive)
    }

    @Test("an app of several sessions shows the one most silenced")
    func severalSessions() {
        var snapshot = Self.snapshot(music: "interrupted")
        var sessions = snapshot["sessions"] as! [[String: Any]]
        sessions.append(["session": "/s/4", "app": "mpv", "policy": "media-player", "active": true])
        snapshot["sessions"] = sessions
        let state = BridgeState(snapshot: snapshot)
        #expect(state.apps.first { $0.name == "mpv" }?.condition == .interrupted(by: ["a call in Firefox"], paused: true))
    }
}
