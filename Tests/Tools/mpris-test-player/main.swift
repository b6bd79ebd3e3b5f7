// SPDX-License-Identifier: Apache-2.0
// mpris-test-player NAME [PACAT]: a small MPRIS player for tests. It owns
// org.mpris.MediaPlayer2.testplayer (or org.mpris.MediaPlayer2.$MPRIS_SUFFIX) on the session bus,
// plays silence through a child pacat (or the program PACAT, a copy of pacat under another name; "-"
// for no stream of its own) as the app NAME (media.role=music), and prints "Pause" or "Play" when it is
// asked to. $MPRIS_STATUS is its PlaybackStatus at the start (Playing); $MPRIS_CAN_PAUSE=no makes
// CanPause false. Each read of PlaybackStatus prints "status read".
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
let objects = ObjectServer(connection: connection)
let player = ExportedInterface(
    name: "org.mpris.MediaPlayer2.Player",
    methods: [
        "Pause": ExportedMethod("") { _ in status = "Paused"; say("Pause"); return .reply([]) },
        "Play": ExportedMethod("") { _ in status = "Playing"; say("Play"); return .reply([]) },
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
