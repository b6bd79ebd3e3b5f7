// SPDX-License-Identifier: Apache-2.0
// mpris-test-player NAME [PACAT]: a small MPRIS player for tests. It owns
// org.mpris.MediaPlayer2.testplayer (or org.mpris.MediaPlayer2.$MPRIS_SUFFIX) on the session bus,
// plays silence through a child pacat (or the program PACAT, a copy of pacat under another name; "-"
// for no stream of its own) as the app NAME (media.role=music), and prints "Pause" or "Play" when it is
// asked to. $MPRIS_STATUS is its PlaybackStatus at the start (Playing); $MPRIS_CAN_PAUSE=no makes
// CanPause false. Each read of PlaybackStatus prints "status read". $MPRIS_ANNOUNCE makes it announce
// its PlaybackStatus (PropertiesChanged) late, as mpv's plugin may, which answers Play and Pause at
// once and announces the change once the player has made it: `late` announces each change (its state
// at the start first) after its answer to the next Play or Pause; `in-fours` holds them until four are
// held (the start among them) and announces them together after that answer. It prints "announced
// STATUS, ..." once the bridge has answered a Ping sent after them: the bridge has taken them in by then
// (one connection, in order).
import DBusKit
import Foundation
import Glibc

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let name = CommandLine.arguments.dropFirst().first ?? "Test Player"
let loop = BusThreadLoop()
let connection = try BusConnection(.session)
connection.attach(to: loop)
nonisolated(unsafe) var status = ProcessInfo.processInfo.environment["MPRIS_STATUS"] ?? "Playing"
let canPause = ProcessInfo.processInfo.environment["MPRIS_CAN_PAUSE"] != "no"
nonisolated(unsafe) let objects = ObjectServer(connection: connection)
/// How many changes it holds before it announces them (0: it announces nothing), the last kept back.
let (heldAtOnce, keptBack) = switch ProcessInfo.processInfo.environment["MPRIS_ANNOUNCE"] {
case "late": (2, 1)
case "in-fours": (4, 0)
default: (0, 0)
}
/// The changes not announced yet, oldest first.
nonisolated(unsafe) var unannounced = heldAtOnce > 0 ? [status] : []

/// Play or Pause: answered, then the changes held are announced once there are enough of them.
func command(_ call: MethodCall, _ member: String, to newStatus: String) -> MethodResult {
    status = newStatus
    say(member)
    guard heldAtOnce > 0 else { return .reply([]) }
    objects.reply(to: call.message, .reply([]))
    unannounced.append(newStatus)
    guard unannounced.count >= heldAtOnce else { return .later }
    let announced = Array(unannounced.dropLast(keptBack))
    unannounced = Array(unannounced.suffix(keptBack))
    for change in announced {
        objects.emitPropertiesChanged(path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.Player",
                                      changed: [("PlaybackStatus", .string(change))])
    }
    connection.call(.methodCall(destination: "io.github.audiosession.Bridge1", path: "/", interface: "org.freedesktop.DBus.Peer",
                                member: "Ping")) { _ in say("announced \(announced.joined(separator: ", "))") }
    return .later
}

let player = ExportedInterface(
    name: "org.mpris.MediaPlayer2.Player",
    methods: [
        "Pause": ExportedMethod("") { command($0, "Pause", to: "Paused") },
        "Play": ExportedMethod("") { command($0, "Play", to: "Playing") },
        "PlayPause": ExportedMethod("") { _ in status = status == "Playing" ? "Paused" : "Playing"; say("PlayPause"); return .reply([]) },
        "Stop": ExportedMethod("") { _ in status = "Stopped"; say("Stop"); return .reply([]) },
    ],
    properties: ["PlaybackStatus": ExportedProperty("s", get: { say("status read"); return .string(status) }),
                 "CanPause": ExportedProperty("b", get: { .bool(canPause) }),
                 "CanPlay": ExportedProperty("b", get: { .bool(true) })],
    introspectionXML: "")
let root = ExportedInterface(name: "org.mpris.MediaPlayer2", methods: [:],
                             properties: ["Identity": ExportedProperty("s", get: { .string(name) })], introspectionXML: "")
objects.export(path: "/org/mpris/MediaPlayer2", interfaces: [root, player])
let suffix = ProcessInfo.processInfo.environment["MPRIS_SUFFIX"] ?? "testplayer"
guard try connection.requestName("org.mpris.MediaPlayer2.\(suffix)") else { fatalError("the name is taken") }
loop.start()

var pid: Int32 = 0
let program = CommandLine.arguments.dropFirst(2).first ?? "pacat"
if program == "-" {
    say("ready")
    while true { sleep(60) }
}
let arguments = [program, "--playback", "--raw", "--client-name=\(name)", "--property=media.role=music", "/dev/zero"]
let argv = arguments.map { strdup($0) } + [nil]
posix_spawnp(&pid, program, nil, nil, argv, environ)
say("ready")
signal(SIGTERM) { _ in exit(0) }
waitpid(pid, nil, 0)
