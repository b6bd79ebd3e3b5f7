// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// A web meeting in a real browser, unmodified: Chromium under Xvfb captures the simulated microphone
/// and plays the far end of a WebRTC call (two peer connections in one page), as Meet or Jitsi do. It
/// plays as "Chromium" and records as "Chromium input" from one audio process, with no role. The music
/// is mpv with its MPRIS plugin. Assertions on MPRIS status and on the server's state.
@Suite("Web meetings in a real browser", .serialized, .threadOfItsOwn)
struct WebMeetingTests {
    /// The meeting: the microphone goes to one peer connection, and what the other receives plays. Each
    /// step is written to the console, which both browsers copy to their output, so that a failure
    /// says how far the page came.
    static let page = """
        <!doctype html><meta charset="utf-8"><title>waiting</title>
        <script>
        async function call() {
          const mic = await navigator.mediaDevices.getUserMedia({audio: true});
          console.log("meeting: the microphone is open");
          const near = new RTCPeerConnection(), far = new RTCPeerConnection();
          near.onicecandidate = e => { if (e.candidate) far.addIceCandidate(e.candidate); };
          far.onicecandidate = e => { if (e.candidate) near.addIceCandidate(e.candidate); };
          far.ontrack = e => { const el = new Audio(); el.srcObject = e.streams[0]; el.play(); window.farEnd = el; };
          mic.getTracks().forEach(t => near.addTrack(t, mic));
          await near.setLocalDescription(); await far.setRemoteDescription(near.localDescription);
          await far.setLocalDescription(); await near.setRemoteDescription(far.localDescription);
          document.title = "in call";
          console.log("meeting: in call");
        }
        call().catch(e => { document.title = "error " + e; console.log("meeting: failed: " + e); });
        </script>
        """

    /// mpv plays; `start` opens the meeting's page in a browser whose streams `isBrowser` tells; mpv must
    /// be paused while the browser records and plays, and play again once the page has closed.
    func meeting(_ kind: SoundServerKind, _ name: String, isBrowser: @escaping (ReportedStream) -> Bool,
                 start: (SoundServer, _ page: String) throws -> TestProcess) throws {
        let bridged = try BridgedServer(kind)
        defer { bridged.stop() }
        let server = bridged.server
        let (player, _, _) = try RealPlayerTests.startMPV(server)
        let music = try server.reportedStream(of: "mpv")

        let page = server.root + "/meeting.html"
        try Self.page.write(toFile: page, atomically: true, encoding: .utf8)
        let browser = try start(server, page)
        func browserStreams() throws -> (playing: Int, recording: Int) {
            (try server.streams().compactMap(ReportedStream.init).filter(isBrowser).count,
             try server.streams(record: true).compactMap(ReportedStream.init).filter(isBrowser).count)
        }
        try bridged.waitUntil("\(name) to record and play (its output: \(browser.output.suffix(800)))", timeout: .seconds(40)) {
            let streams = try browserStreams()
            return streams.playing > 0 && streams.recording > 0
        }
        try bridged.waitUntil("the meeting to pause mpv (status \(player.status))", timeout: .seconds(15)) { player.status == "Paused" }
        func status() throws -> String {
            try TestProcess.run(BridgeDaemon.buildDirectory + "/audiosessionctl", ["status"], environment: server.environment).output
        }
        try bridged.waitUntil("audiosessionctl status to show the meeting as a call (now: \((try? status()) ?? "?"))", timeout: .seconds(15)) {
            try status().contains("is in a call: it records from a microphone while it plays")
        }

        _ = browser.stop(grace: .seconds(5))  // the meeting's page closes
        try bridged.waitUntil("\(name)'s streams to end") { try browserStreams() == (0, 0) }
        try bridged.waitUntil("mpv to play again after the meeting (status \(player.status))", timeout: .seconds(15)) {
            player.status == "Playing"
        }
        try bridged.waitUntil("mpv's stream unmuted") { try server.reportedStream(index: music.index)?.mute == false }
    }

    /// Chromium plays as "Chromium" and records as "Chromium input", from one audio process.
    @Test("a web meeting in Chromium pauses mpv, and mpv plays again when the meeting's page closes",
          arguments: SoundServerKind.underTest)
    func chromiumMeeting(kind: SoundServerKind) throws {
        try meeting(kind, "Chromium", isBrowser: { $0.app.hasPrefix("Chromium") }) { server, page in
            try server.spawn("chromium", [
                "--no-sandbox", "--use-fake-ui-for-media-stream", "--autoplay-policy=no-user-gesture-required",
                "--user-data-dir=\(server.root)/chromium", "--no-first-run", "--disable-gpu", "--password-store=basic",
                "--enable-logging=stderr", "file://\(page)",
            ], extraEnvironment: ["DISPLAY": try server.startDisplay()])
        }
    }

    /// Firefox names its capture and its far end alike.
    @Test("a web meeting in headless Firefox ESR pauses mpv, and mpv plays again when the meeting's page closes",
          arguments: SoundServerKind.underTest)
    func firefoxMeeting(kind: SoundServerKind) throws {
        try meeting(kind, "Firefox", isBrowser: { $0.app.lowercased().contains("firefox") }) { server, page in
            let profile = server.root + "/firefox"
            try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
            try """
                user_pref("media.navigator.permission.disabled", true);
                user_pref("media.autoplay.default", 0);
                user_pref("media.autoplay.blocking_policy", 0);
                user_pref("browser.shell.checkDefaultBrowser", false);
                user_pref("datareporting.policy.dataSubmissionEnabled", false);
                user_pref("devtools.console.stdout.content", true);
                """.write(toFile: profile + "/user.js", atomically: true, encoding: .utf8)
            let arguments = ["--headless", "--no-remote", "--profile", profile, "file://\(page)"]
            return try server.spawn("firefox-esr", arguments, extraEnvironment: Self.firefoxsOwnVariables(arguments: arguments))
        }
    }

    /// The variables Firefox ESR (153) writes into its own environment as it starts with `arguments`, each
    /// already there, so that it overwrites them in place. A variable it adds makes glibc move the whole
    /// environment, and Firefox adds some with forty threads running: a GLib worker reading `LANG` then
    /// walked the freed environment and Firefox crashed before it opened any audio (once in a run of
    /// `make stress`; the dump showed `getenv` reading memory freed and poisoned by Firefox's allocator;
    /// DECISIONS 131). Each holds what Firefox writes, or nothing where it writes a path or an argument of
    /// its own, or clears it (an empty value is Firefox's own way of clearing a variable).
    static func firefoxsOwnVariables(arguments: [String]) -> [String: String] {
        var variables = ["MOZ_HEADLESS": "1", "NO_AT_BRIDGE": "1", "MOZ_ASSUME_USER_NS": "1", "__GL_ALLOW_FXAA_USAGE": "0",
                         "mesa_glthread": "false"]
        // For a restart Firefox keeps each argument but --headless, and one empty after them.
        let restartArguments = (1...arguments.filter { $0 != "--headless" }.count + 1).map { "MOZ_CRASHREPORTER_RESTART_ARG_\($0)" }
        let emptyAtFirst = ["MOZ_LAUNCHED_CHILD", "MOZ_APP_SILENT_START", "SELECTABLE_PROFILE_RESET_PATH",
                            "SELECTABLE_PROFILE_RESET_STORE_ID", "XRE_PROFILE_PATH", "XRE_PROFILE_LOCAL_PATH", "XRE_START_OFFLINE",
                            "XUL_APP_FILE", "XRE_BINARY_PATH", "XRE_RESTARTED_BY_PROFILE_MANAGER",
                            "MOZ_CRASHREPORTER_EVENTS_DIRECTORY", "MOZ_CRASHREPORTER_DATA_DIRECTORY",
                            "MOZ_CRASHREPORTER_PING_DIRECTORY"] + restartArguments
        for name in emptyAtFirst { variables[name] = "" }
        return variables
    }
}

/// A page's `<audio>` in Chromium, interrupted by a softphone call: paused through Chromium's own MPRIS
/// player, and nothing is left muted after.
@Suite("A page's audio in Chromium", .threadOfItsOwn)
struct BrowserAudioTests {
    @Test("a softphone call pauses a page's audio in Chromium, and nothing is left muted after", arguments: SoundServerKind.underTest)
    func callPausesPageAudio(kind: SoundServerKind) throws {
        let bridged = try BridgedServer(kind)
        defer { bridged.stop() }
        let server = bridged.server
        _ = try server.writeSound([(true, 10)], name: "tone", wave: true)
        let page = server.root + "/player.html"
        try "<!doctype html><title>player</title><audio src=\"tone.wav\" loop autoplay controls></audio>"
            .write(toFile: page, atomically: true, encoding: .utf8)
        let browser = try server.spawn("chromium", [
            "--no-sandbox", "--autoplay-policy=no-user-gesture-required", "--user-data-dir=\(server.root)/chromium",
            "--no-first-run", "--disable-gpu", "--password-store=basic", "file://\(page)",
        ], extraEnvironment: ["DISPLAY": try server.startDisplay()])
        defer { _ = browser.stop(grace: .seconds(5)) }
        let player = MPRISPlayer(name: "org.mpris.MediaPlayer2.chromium.instance\(browser.pid)", server: server)
        try bridged.waitUntil("Chromium's player to play (its output: \(browser.output.suffix(800)))", timeout: .seconds(30)) {
            player.status == "Playing"
        }
        _ = try server.reportedStream(of: "Chromium")

        let call = try server.play(app: "softphone", role: "phone")
        try bridged.waitUntil("the call to pause the page (status \(player.status))", timeout: .seconds(15)) { player.status == "Paused" }
        call.stop()
        try bridged.waitUntil("the call's stream to end") { try server.streams().compactMap(ReportedStream.init).allSatisfy { $0.app != "softphone" } }
        try bridged.waitUntil("nothing of Chromium's left muted") {
            try server.streams().compactMap(ReportedStream.init).filter { $0.app == "Chromium" }.allSatisfy { !$0.mute }
        }
        #expect(player.status == "Paused", "a browser's page does not play again by itself (browser-like: resume never)")
    }
}
