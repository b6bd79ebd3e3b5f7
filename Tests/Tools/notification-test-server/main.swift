// SPDX-License-Identifier: Apache-2.0
// notification-test-server MODE: a stand-in desktop notification server for tests. It owns
// org.freedesktop.Notifications on the session bus and answers every notification as MODE says:
// "allow" or "deny" (the user clicks that action), "close" (the user dismisses it), or "ignore" (no
// answer). It prints "asked: SUMMARY" for each notification and "closed: ID" for each CloseNotification.
import DBusKit
import Foundation

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let mode = CommandLine.arguments.dropFirst().first ?? "ignore"
let loop = BusThreadLoop()
let connection = try BusConnection(.session)
connection.attach(to: loop)
nonisolated(unsafe) let objects = ObjectServer(connection: connection)
let path = "/org/freedesktop/Notifications"
let interface = "org.freedesktop.Notifications"
nonisolated(unsafe) var nextID: UInt32 = 1

func signal(_ member: String, _ arguments: [BusValue]) {
    objects.emitSignal(path: path, interface: interface, member: member, arguments)
}

let notifications = ExportedInterface(
    name: interface,
    methods: [
        "Notify": ExportedMethod("susssasa{sv}i") { call in
            let id = nextID
            nextID += 1
            say("asked: \(call.arguments[3].stringValue ?? "")")
            // The answer follows the reply, so that the caller knows the id it refers to.
            objects.reply(to: call.message, .reply([.uint32(id)]))
            switch mode {
            case "allow", "deny":
                signal("ActionInvoked", [.uint32(id), .string(mode)])
                signal("NotificationClosed", [.uint32(id), .uint32(2)])
            case "close": signal("NotificationClosed", [.uint32(id), .uint32(2)])
            default: break
            }
            return .later
        },
        "CloseNotification": ExportedMethod("u") { call in
            say("closed: \(call.arguments[0].uint32Value ?? 0)")
            return .reply([])
        },
        "GetCapabilities": ExportedMethod("") { _ in .reply([.strings(["actions", "body"])]) },
        "GetServerInformation": ExportedMethod("") { _ in
            .reply([.string("notification-test-server"), .string("audiosession"), .string("1"), .string("1.2")])
        },
    ],
    properties: [:], introspectionXML: "")
objects.export(path: path, interfaces: [notifications])
guard try connection.requestName(interface) else { fatalError("org.freedesktop.Notifications is taken") }
loop.start()
say("ready")
signal(SIGTERM) { _ in exit(0) }
while true { sleep(60) }
