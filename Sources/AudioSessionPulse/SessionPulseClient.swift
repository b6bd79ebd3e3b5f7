// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import Foundation
import PulseAudioClient

/// An app's own libpulse connection inside its audio session: its own loop and context, whose
/// streams carry the session's token. The tone player and the recorder are built on it.
final class SessionPulseClient: @unchecked Sendable {
    let loop: PulseLoop
    private var context: PulseContext?
    /// The stream's properties: the app's name, the session's token, the role.
    let streamProperties: [String: String]

    /// A failure to reach the server or to start the stream, with its reason.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to the sound server (`PULSE_SERVER` or libpulse's default); once the context is ready,
    /// `start` makes and connects the stream and calls its argument when the stream is ready (true)
    /// or failed. Waits for that, or throws.
    init(session: AudioSession, appName: String, role: String?,
         start: @escaping @Sendable (PulseContext, [String: String], @escaping (Bool) -> Void) throws -> Void) throws {
        loop = try PulseLoop()
        loop.start()
        var properties = ["application.name": appName]
        if let token = session.streamToken { properties["audiosession.token"] = token }
        if let role { properties["media.role"] = role }
        streamProperties = properties
        let ready = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        loop.perform { [self] in
            do {
                let context = try PulseContext(loop: loop, name: appName, properties: streamProperties)
                self.context = context
                context.onStateChange = { [unowned self] state in
                    if state == .ready {
                        do {
                            try start(context, streamProperties) { ok in
                                if !ok { failure.message = "the stream failed" }
                                ready.signal()
                            }
                        } catch {
                            failure.message = "\(error)"
                            ready.signal()
                        }
                    } else if state.isFinal {
                        failure.message = "cannot reach the sound server: \(context.lastError)"
                        ready.signal()
                    }
                }
                try context.connect(server: ProcessInfo.processInfo.environment["PULSE_SERVER"])
            } catch {
                failure.message = "\(error)"
                ready.signal()
            }
        }
        guard ready.wait(timeout: .now() + 10) == .success else { throw Failure(description: "the sound server did not answer") }
        if let message = failure.message { throw Failure(description: message) }
    }

    /// Ends the stream (`disconnect`, on the loop thread) and the connection, and waits until done.
    func stop(_ disconnect: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        loop.perform { [self] in
            disconnect()
            context?.disconnect()
            done.signal()
        }
        done.wait()
    }

    private final class FailureBox: @unchecked Sendable { var message: String? }
}
