// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import PulseAudioClient

/// What silences the music when a phone-role stream plays, in a ``CallRig``.
enum Silencer: CustomStringConvertible {
    /// The bridge, with the shipped policy files (a 30 ms fade before the mute) or with policies that
    /// mute at once (``CallRig/noFadePolicies``).
    case bridge(fades: Bool)
    /// PulseAudio's in-server module-role-cork, and no bridge.
    case roleCork
    /// No bridge: the probe, a client like any other, mutes the music itself when it sees the call. It
    /// is the app that starts the call, so it is awake when the call's stream comes.
    case clientMutes
    /// No bridge: a process of its own, asleep until the server tells it of the call, mutes the music
    /// when it sees the call play, as any silencer outside the server and outside the app (the floor).
    /// It keeps the bridge's rule, sound, not presence: a call's stream that is still corked does not
    /// count (PipeWire 0.3 reports every new stream corked until the graph runs it).
    case muterProcess
    /// As ``muterProcess``, but the process fades the music out over 30 ms in 10 ms steps before it
    /// mutes it, as the shipped policies do: the floor for the fade's first step.
    case faderProcess
    /// No bridge: WirePlumber 0.5's role-based policy with its example role sinks (PipeWire 1.4). A
    /// Communication stream corks the Multimedia role, which WirePlumber does by unlinking the music
    /// from its role sink: a client sees the music's sink-input lose its sink.
    case wirePlumberRoles

    /// Whether the silencer is a process of its own (the floor, muting or fading).
    var isProcessOfItsOwn: Bool {
        switch self {
        case .muterProcess, .faderProcess: true
        default: false
        }
    }

    /// Whether the silencer needs a server started with WirePlumber 0.5's role sinks: WirePlumber's role
    /// policy. It cannot take turns on the rigs, so it keeps a rig of its own and takes its rounds after
    /// the others': WirePlumber relinks every music stream after its call, through its own process,
    /// PipeWire's and pipewire-pulse's, and the rig after it read up to twice as slow even once all
    /// three were quiet.
    var needsRoleSinks: Bool {
        if case .wirePlumberRoles = self { return true }
        return false
    }

    /// Whether the silencer fades the music before it mutes it.
    var fades: Bool {
        switch self {
        case .bridge(let fades): fades
        case .faderProcess: true
        default: false
        }
    }

    var description: String {
        switch self {
        case .bridge(let fades): fades ? "the bridge, shipped policies" : "the bridge, fades off"
        case .roleCork: "module-role-cork"
        case .clientMutes: "a client muting the streams itself"
        case .muterProcess: "a process of its own muting the streams"
        case .faderProcess: "a process of its own fading the streams out"
        case .wirePlumberRoles: "WirePlumber 0.5's role-based policy"
        }
    }
}

/// A private server with one app's music streams playing, where a call starts and ends, silenced by the
/// ``Silencer`` attached to it at the time (the silencers take turns on the rigs). The music streams are
/// the probe's own: unlike pacat they do not cork themselves when module-role-cork asks them to, so
/// every silencer is measured until the same things happen.
final class CallRig {
    /// Policy files that mute music at once (no fade) when a phone-role stream plays, and end the call
    /// as soon as its stream does.
    static let noFadePolicies = [
        "bench-music.toml": """
            schema = 1
            description = "Music of the role-cork comparison"
            [session]
            category = "playback"
            options = ["mixWithOthers"]
            [fades]
            interruption-ms = 0
            [match]
            roles = ["music"]
            precedence = 900
            """,
        "bench-call.toml": """
            schema = 1
            description = "Calls of the role-cork comparison"
            [session]
            category = "playAndRecord"
            mode = "voiceChat"
            [activation]
            release-grace-ms = 0
            [match]
            roles = ["phone"]
            precedence = 900
            """,
    ]

    /// The `application.name` of the call's stream.
    static let callApp = "bench-call"
    /// How long a rig's server may run before its watchdog ends it (the tests' five minutes): a rig
    /// lives through all its rounds, and seven rigs' hundred calls at a hundred streams on PipeWire,
    /// WirePlumber's last, take longer than five minutes.
    static let lifetime = Duration.seconds(2 * 3600)

    /// When a round's music was first audibly changed (a fade's first step, or the mute) and when it
    /// was muted, from the moment the call's stream was asked for.
    struct Round {
        var firstChange: Duration
        var muted: Duration
        /// When the probe's own view first showed every music stream silenced or its fade begun: the
        /// measure from outside, the probe's reading included.
        var firstSeen: Duration
    }

    /// The music streams each of the probe's connections plays: pipewire-pulse takes at most 64 streams
    /// per client, so a hundred play from two connections.
    static let musicStreamsPerConnection = 50

    let server: SoundServer
    let probe: StreamProbe
    let count: Int
    /// Whether a music stream is silenced: muted, or (under WirePlumber's role policy) unlinked.
    let silenced: @Sendable (PulseStream) -> Bool
    /// Whether a music stream plays as it did before the call.
    let playing: @Sendable (PulseStream) -> Bool
    /// Where the rig keeps ``noFadePolicies`` for a bridge with fades off.
    private var noFadeFolder: String { server.root + "/bench-policies" }
    /// The silencer that now silences the rig's music (``attach(_:)``), if any.
    private(set) var silencer: Silencer?
    private(set) var daemon: BridgeDaemon?
    /// The process of ``Silencer/muterProcess`` or ``Silencer/faderProcess``.
    private(set) var muter: TestProcess?
    /// module-role-cork's index on the server while ``Silencer/roleCork`` is attached.
    private var roleCorkModule: String?

    /// A server with `count` music streams playing and no silencer yet. With `rolePolicy`, WirePlumber
    /// 0.5 runs its role-based policy with its example role sinks (for ``Silencer/wirePlumberRoles``,
    /// which stays with the rig it was made for).
    init(on kind: SoundServerKind, musicStreams count: Int, rolePolicy: Bool = false) throws {
        self.count = count
        server = try SoundServer(kind, lifetime: Self.lifetime)
        if rolePolicy {
            try server.startRoleBasedPolicy()
            guard let multimedia = try server.deviceIndex(named: SoundServer.RoleSink.multimedia.name) else {
                throw BenchError("no multimedia role sink")
            }
            silenced = { $0.mute || $0.device == UInt32.max }
            playing = { !$0.mute && $0.device == multimedia }
        } else {
            silenced = { $0.mute }
            playing = { !$0.mute }
        }
        probe = try StreamProbe(address: server.address, readsWholeList: true)
        for number in 0..<count {
            _ = try probe.play(properties: ["media.role": "music", "application.name": "bench-music", "media.name": "music-\(number)"],
                               connection: number / Self.musicStreamsPerConnection)
        }
        _ = try probe.stamp("\(count) music streams", when: { [count, playing] in Self.music($0, count, playing) }, timeout: .seconds(30))
        try FileManager.default.createDirectory(atPath: noFadeFolder, withIntermediateDirectories: true)
        for (name, text) in Self.noFadePolicies { try text.write(toFile: noFadeFolder + "/" + name, atomically: false, encoding: .utf8) }
    }

    /// Makes `silencer` the one that silences the rig's music during its calls, once the music plays as
    /// before a call; a bridge is measured once it has settled.
    func attach(_ silencer: Silencer) throws {
        precondition(self.silencer == nil, "a rig has one silencer at a time")
        self.silencer = silencer
        switch silencer {
        case .bridge(fades: true):
            daemon = try BridgeDaemon.settled(on: server)
        case .bridge(fades: false):
            daemon = try BridgeDaemon.settled(on: server, arguments: ["--policies", noFadeFolder])
        case .roleCork:
            roleCorkModule = try server.pactl(["load-module", "module-role-cork"]).trimmingCharacters(in: .whitespacesAndNewlines)
        case .clientMutes:
            probe.mutesMusicDuringCalls = true
        case .wirePlumberRoles, .muterProcess, .faderProcess:
            break
        }
        if silencer.isProcessOfItsOwn {
            let option = silencer.fades ? "--fade-music-during-calls-on" : "--mute-music-during-calls-on"
            let muter = try TestProcess(URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path,
                                        [option, server.address],
                                        environment: ProcessInfo.processInfo.environment, logDirectory: server.root, name: "muter")
            self.muter = muter
            try waitUntil("the muting process to connect") { muter.output.contains(StreamProbe.muterReady) }
        }
        daemon.map { ProcessFigures(pid: $0.process.pid).waitUntilQuiet() }
    }

    /// Ends the silencer's part: the bridge is stopped (and undoes what it applied), the process of its
    /// own ends, module-role-cork is unloaded; the music plays on.
    func detach() {
        if let daemon, daemon.terminate() != 0 { FileHandle.standardError.write(Data("\(daemon.diagnosis(lastRecords: 8))\n".utf8)) }
        _ = muter?.stop()
        if let roleCorkModule { _ = try? server.pactl(["unload-module", roleCorkModule]) }
        probe.mutesMusicDuringCalls = false
        (daemon, muter, roleCorkModule, silencer) = (nil, nil, nil, nil)
    }

    /// The rig's processes that act on what a round changed (the bridge, the muting process, WirePlumber),
    /// besides the server's, which plays the music all the time.
    var followers: [ProcessFigures] {
        [daemon?.process.pid, muter?.pid, server.graphManagerPID].compactMap { $0 }.map(ProcessFigures.init(pid:))
    }

    /// What the bridge was doing when a round failed: whether it still runs, its output and its last records.
    var diagnosis: String {
        guard let daemon else { return server.serverState }
        return "\(server.serverState)\n\(daemon.diagnosis(lastRecords: 8))"
    }

    func stop() {
        detach()
        probe.close()
        server.stop()
    }

    /// Whether all `count` music streams are there and each satisfies `condition`.
    static func music(_ streams: [UInt32: PulseStream], _ count: Int, _ condition: (PulseStream) -> Bool) -> Bool {
        let music = musicStreams(streams)
        return music.count == count && music.allSatisfy(condition)
    }

    static func musicStreams(_ streams: [UInt32: PulseStream]) -> [PulseStream] {
        streams.values.filter { $0.properties["application.name"]?.hasPrefix("bench-music") ?? false }
    }

    /// The music streams' indexes.
    static func musicIndexes(_ streams: [UInt32: PulseStream]) -> [UInt32] { musicStreams(streams).map(\.index) }

    /// Audibly changed: silenced, or lowered below full volume by a fade's first step.
    func silencing(_ stream: PulseStream) -> Bool { silenced(stream) || (stream.volume.max() ?? 0) < 0x10000 }

    /// One call: the times until the music is first changed and until it is muted; then the call ends
    /// and the music comes back at full volume.
    func round() throws -> Round {
        let start = ContinuousClock.now
        let call = try probe.play(properties: ["media.role": "phone", "application.name": Self.callApp, "media.name": "call"])
        let changed: (announced: ContinuousClock.Instant, seen: ContinuousClock.Instant)
        do {
            changed = try probe.stamps("the music changed", when: { [count] in Self.music($0, count, self.silencing) },
                                       announcedBy: Self.musicIndexes)
        } catch {
            let failure = try probe.stopUnansweredCall(call, app: Self.callApp, after: error)
            if failure is CallNeverPlayed {
                _ = try probe.stamp("the music as it was", when: { [count, playing] in Self.music($0, count, playing) })
            }
            throw failure
        }
        let muted = try probe.stamp("the music silenced", when: { [count, silenced] in Self.music($0, count, silenced) },
                                    announcedBy: Self.musicIndexes)
        probe.stop(call)
        _ = try probe.stamp("the music back", when: { [count, playing] in
            Self.music($0, count) { playing($0) && ($0.volume.max() ?? 0) >= 0x10000 }
        })
        return Round(firstChange: changed.announced - start, muted: muted - start, firstSeen: changed.seen - start)
    }
}
