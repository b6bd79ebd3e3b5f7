// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import DBusKit
import PulseAudioClient

/// Asks the user whether an app may record: a desktop notification with Allow and Deny actions
/// (`org.freedesktop.Notifications`). The answer is the action the user clicked; a closed
/// notification, no answer within the timeout, or no notification server is no answer (nil).
/// Only the notification server that showed a question may answer it.
final class PermissionQuestions {
    static let service = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let matchRule = "type='signal',interface='org.freedesktop.Notifications'"

    private let connection: BusConnection
    private let loop: PulseLoop
    private let answer: (String, RecordPermission?) -> Void

    /// An open question: its app, the server that shows it, and its timeout.
    private struct Open {
        var app: String
        var server: String
        var timer: PulseTimer
    }
    private var open: [UInt32: Open] = [:]

    /// `answer` receives each app's answer, on the loop thread.
    init(connection: BusConnection, loop: PulseLoop, answer: @escaping (String, RecordPermission?) -> Void) {
        self.connection = connection
        self.loop = loop
        self.answer = answer
    }

    /// Shows the question for `app`; the answer comes within `timeout`.
    func ask(app: String, timeout: Duration) {
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000)
        let notify = BusMessage.methodCall(
            destination: Self.service, path: Self.path, interface: Self.service, member: "Notify", [
                .string("audiosession"), .uint32(0), .string("audio-input-microphone"),
                .string("Allow \(app) to record?"),
                .string("\(app) wants to use the microphone. Without your permission it records silence."),
                .strings(["allow", "Allow", "deny", "Deny"]),
                .vardict([("urgency", .byte(2)), ("category", .string("device"))]), .int32(milliseconds),
            ])
        connection.call(notify) { [self] result in
            guard case .success(let reply) = result, let id = reply.arguments.first?.uint32Value else {
                return answer(app, nil)  // no notification server, or it refused
            }
            let timer = PulseTimer(loop: loop) { [unowned self] in timedOut(id) }
            timer.arm(after: timeout)
            open[id] = Open(app: app, server: reply.sender ?? "", timer: timer)
        }
    }

    /// Takes the notification server's signals; true when the message was one of them.
    func handle(_ message: BusMessage) -> Bool {
        guard message.kind == .signal, message.interface == Self.service,
            let id = message.arguments.first?.uint32Value, let question = open[id], message.sender == question.server
        else { return false }
        switch message.member {
        case "ActionInvoked":
            let action = message.arguments.dropFirst().first?.stringValue
            finish(id, action == "allow" ? .granted : action == "deny" ? .denied : nil, close: true)
        case "NotificationClosed":
            finish(id, nil, close: false)
        default: return false
        }
        return true
    }

    private func timedOut(_ id: UInt32) { finish(id, nil, close: true) }

    private func finish(_ id: UInt32, _ permission: RecordPermission?, close: Bool) {
        guard let question = open.removeValue(forKey: id) else { return }
        question.timer.cancelForever()
        if close {
            connection.call(.methodCall(destination: Self.service, path: Self.path, interface: Self.service,
                                        member: "CloseNotification", [.uint32(id)])) { _ in }
        }
        answer(question.app, permission)
    }
}
