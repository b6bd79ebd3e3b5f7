// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// Programs nobody here wrote, recognised as the desktop recognises them (DESIGN §2, "Who an app is"):
/// a GStreamer pipeline in a GNOME-style unit whose desktop entry says `Player`, a Python program
/// playing through libpulse known by its script, and an unknown binary in a unit whose entry says
/// `Telephony`. Each is checked on the server's state and on MPRIS, and `audiosessionctl policy
/// explain PID` names the fact and rule that decided.
@Suite("The apps people run: recognised by unit, script and desktop entry", .serialized, .threadOfItsOwn)
struct AppsYouRunTests {
    @Test("a GStreamer pipeline (pulsesink) in a unit whose desktop entry says Player is a media player: a call mutes it until it ends",
          arguments: SoundServerKind.underTest)
    func gstreamerInPlayerUnit(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        try Self.installEntry("org.example.Tunes", categories: "GNOME;GTK;AudioVideo;Audio;Player;", exec: "tunes", in: server)
        let unit = try AppScope(desktopID: "org.example.Tunes")
        defer { unit.remove() }
        let pipeline = try unit.start("gst-launch-1.0", ["-q", "audiotestsrc", "is-live=true", "volume=0.1", "!", "audioconvert",
                                                         "!", "pulsesink"],
                                      environment: server.environment, logDirectory: server.root + "/logs")
        defer { _ = pipeline.stop() }
        let client = try scenario.client()
        try Self.expectSession(of: "org.example.Tunes", category: "playback", client, log: pipeline.logPath)
        let stream = try Self.stream(of: pipeline.pid, server)
        try Self.callMutesUntilItEnds(stream, client, server)

        let explained = try Self.explain(pipeline.pid, server)
        #expect(explained.contains("systemd unit: \(unit.name) (desktop id org.example.Tunes)"), "\(explained)")
        #expect(explained.contains("media-player, because its desktop entry's category 'Player' is in [match] categories"),
                "\(explained)")
    }

    @Test("a Python program playing through libpulse is known by the script it runs: a call mutes it until it ends",
          arguments: SoundServerKind.underTest)
    func pythonByScript(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let script = server.root + "/bin/lollypop"
        try FileManager.default.createDirectory(atPath: server.root + "/bin", withIntermediateDirectories: true)
        try Self.libpulseProgram.write(toFile: script, atomically: true, encoding: .utf8)
        let program = try TestProcess("python3", [script], environment: server.environment, logDirectory: server.root + "/logs")
        defer { _ = program.stop() }
        let client = try scenario.client()
        let stream = try Self.stream(of: program.pid, server)
        #expect(stream.properties["application.process.binary"]?.hasPrefix("python3") == true,
                "the stream shows the interpreter, not the app: \(stream.properties)")
        // libpulse names it after its binary, the interpreter; its session is named after its script.
        try Self.expectSession(of: "lollypop", category: "playback", client, log: program.logPath)
        try Self.callMutesUntilItEnds(stream, client, server)

        let explained = try Self.explain(program.pid, server)
        #expect(explained.contains("script: lollypop"), "\(explained)")
        #expect(explained.contains("media-player, because its script 'lollypop' is in [match] binaries"), "\(explained)")
    }

    @Test("an unknown binary in a unit whose desktop entry says Telephony is a call: mpv pauses, and plays when it ends",
          arguments: SoundServerKind.underTest)
    func unknownBinaryInTelephonyUnit(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        try Self.installEntry("org.example.Ringline", categories: "Network;Telephony;", exec: "ringline --call %u", in: server)
        let (player, _, _) = try RealPlayerTests.startMPV(server)
        let music = try server.reportedStream(of: "mpv")
        let unit = try AppScope(desktopID: "org.example.Ringline")
        defer { unit.remove() }
        let binary = try ShippedPolicyTests.pacat(named: "ringline", in: server)
        let call = try unit.start(binary, ["--raw", "--format=s16le", "--rate=48000", "--channels=2", "/dev/zero"],
                                  environment: server.environment, logDirectory: server.root + "/logs")
        let client = try scenario.client()
        try Self.expectSession(of: "org.example.Ringline", category: "playAndRecord", client, log: call.logPath)
        try waitUntil("the call to pause mpv (status \(player.status))") { player.status == "Paused" }
        let created = scenario.daemon.records.first { $0["event"] as? String == "session.created" && $0["app"] as? String == "org.example.Ringline" }
        #expect(created?["why"] as? String == "its desktop entry's category 'Telephony' is in [match] categories")

        let explained = try Self.explain(call.pid, server)
        #expect(explained.contains("binary: ringline"), "\(explained)")
        #expect(explained.contains("desktop entry: org.example.Ringline, found by its systemd unit"), "\(explained)")
        #expect(explained.contains("voip, because its desktop entry's category 'Telephony' is in [match] categories"),
                "\(explained)")

        _ = call.stop()
        try scenario.waitUntil("mpv to play after the call (status \(player.status))", timeout: .seconds(15)) { player.status == "Playing" }
        try waitUntil("mpv's stream unmuted on the server") { try server.reportedStream(index: music.index)?.mute == false }
    }
}

extension AppsYouRunTests {
    /// A desktop entry in the test's `$HOME/.local/share/applications`, where the bridge looks first.
    static func installEntry(_ id: String, categories: String, exec: String, in server: SoundServer) throws {
        let folder = server.root + "/home/.local/share/applications"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=\(id)\nExec=\(exec)\nCategories=\(categories)\n"
            .write(toFile: "\(folder)/\(id).desktop", atomically: true, encoding: .utf8)
    }

    /// Waits for a policy session of `app` with `category`. GStreamer's pulsesink opens a stream to
    /// probe the server before the one it plays: the session made for the probe goes with it, so a
    /// session that vanishes while it is read is looked for again.
    static func expectSession(of app: String, category: String, _ client: BusClient, log: String) throws {
        try waitUntil("a \(category) session of \(app) (its output: \(textSoFar(log)))", timeout: .seconds(20)) {
            let sessions = try client.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? []
            return sessions.compactMap(\.stringValue).contains { path in
                (try? client.property(path, "AppId")) == .string(app) && (try? client.property(path, "Category")) == .string(category)
            }
        }
    }

    /// The playing sink-input of a process, once the server reports it (not a probe, which stays corked).
    static func stream(of pid: Int32, _ server: SoundServer) throws -> ReportedStream {
        var found: ReportedStream?
        try waitUntil("the server to report the stream of process \(pid)", timeout: .seconds(20)) {
            found = try server.streams().compactMap(ReportedStream.init).first {
                ($0.properties["application.process.id"] == "\(pid)" || $0.properties["pipewire.sec.pid"] == "\(pid)") && !$0.corked
            }
            return found != nil
        }
        return found!
    }

    /// A call of `client`'s mutes the stream; when it ends with notifyOthersOnDeactivation, the stream is
    /// unmuted.
    static func callMutesUntilItEnds(_ stream: ReportedStream, _ client: BusClient, _ server: SoundServer) throws {
        let call = try client.createSession("call")
        try client.setCategory(call.path, "playAndRecord", mode: "voiceChat")
        try client.setActive(call.path, true)
        try waitUntil("the call to mute stream \(stream.index) on the server") {
            try server.reportedStream(index: stream.index)?.mute == true
        }
        try client.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
        try waitUntil("stream \(stream.index) unmuted after the call") { try server.reportedStream(index: stream.index)?.mute == false }
    }

    /// `audiosessionctl policy explain PID` with the shipped policies, in the test's environment.
    static func explain(_ pid: Int32, _ server: SoundServer) throws -> String {
        let ctl = BridgeDaemon.buildDirectory + "/audiosessionctl"
        let (status, output) = try TestProcess.run(ctl, ["policy", "explain", "\(pid)", "--policies", BridgeDaemon.policiesFolder],
                                                   environment: server.environment)
        #expect(status == 0, "\(output)")
        return output
    }

    /// A Python program that plays silence through libpulse's simple API (by ctypes, as bindings do),
    /// giving no name of its own: libpulse names it after its binary, the interpreter.
    static let libpulseProgram = """
        #!/usr/bin/python3
        import ctypes, sys

        pulse = ctypes.CDLL("libpulse-simple.so.0")

        class SampleSpec(ctypes.Structure):
            _fields_ = [("format", ctypes.c_int), ("rate", ctypes.c_uint32), ("channels", ctypes.c_uint8)]

        PA_SAMPLE_S16LE, PA_STREAM_PLAYBACK = 3, 1
        spec = SampleSpec(PA_SAMPLE_S16LE, 48000, 2)
        error = ctypes.c_int(0)
        pulse.pa_simple_new.restype = ctypes.c_void_p
        connection = pulse.pa_simple_new(None, None, PA_STREAM_PLAYBACK, None, b"music", ctypes.byref(spec), None, None,
                                         ctypes.byref(error))
        if not connection:
            sys.exit("pa_simple_new failed: %d" % error.value)
        silence = bytes(9600)
        while pulse.pa_simple_write(ctypes.c_void_p(connection), silence, len(silence), ctypes.byref(error)) == 0:
            pass
        sys.exit("pa_simple_write failed: %d" % error.value)
        """
}
