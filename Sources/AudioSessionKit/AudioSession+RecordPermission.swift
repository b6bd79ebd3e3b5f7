// SPDX-License-Identifier: Apache-2.0
import Dispatch

extension AudioSession {
    /// Whether the app may record (`AVAudioSession.RecordPermission`, with Apple's raw values).
    public enum RecordPermission: UInt, Sendable {
        /// The user has not decided yet.
        case undetermined = 1_970_168_948  // 'undt'
        /// The user said no: the app records silence.
        case denied = 1_684_369_017  // 'deny'
        /// The user said yes.
        case granted = 1_735_552_628  // 'grnt'
    }

    /// The app's record permission as the bridge holds it: `undetermined` until the user decides (or
    /// when the bridge cannot be reached). A denied app records silence.
    public var recordPermission: RecordPermission {
        switch property("RecordPermission")?.stringValue {
        case "granted": .granted
        case "denied": .denied
        default: .undetermined
        }
    }

    /// How long a request may wait for the user's answer (the bridge answers within its policy's timeout).
    static let recordPermissionWait = Duration.seconds(660)

    /// Asks for the record permission: the bridge asks the user the first time (a desktop notification
    /// with Allow and Deny) and answers at once after that. `response` gets whether the app may record,
    /// on a queue of the library's; false when the user did not answer or the bridge cannot be reached.
    public func requestRecordPermission(_ response: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async { [self] in
            let granted = (try? call("RequestRecordPermission", timeout: Self.recordPermissionWait))?.first?.boolValue
            response(granted ?? false)
        }
    }

    /// The `async` form of ``requestRecordPermission(_:)``.
    public func requestRecordPermission() async -> Bool {
        await withCheckedContinuation { continuation in requestRecordPermission { continuation.resume(returning: $0) } }
    }
}
