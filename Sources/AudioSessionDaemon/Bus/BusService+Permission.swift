// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionIPC
import AudioSessionModel
import DBusKit

/// The bus members of record permission: a session's `RequestRecordPermission`, and the manager's
/// `SetRecordPermission` and `RecordPermissions` for `audiosessionctl permission`.
extension BusService {
    func permissionSessionMethods() -> [String: ExportedMethod] {
        [
            // Answered when the user has decided (or the question ended without an answer).
            "RequestRecordPermission": method("") { [unowned self] call in
                owned(call) { id, _ in forward(call) { .requestRecordPermission($0, id, caller: call.sender) } }
            },
        ]
    }

    func permissionManagerMethods() -> [String: ExportedMethod] {
        [
            "SetRecordPermission": method("ss") { [unowned self] call in
                let app = call.arguments[0].stringValue ?? ""
                if let refused = refusalToSandbox(call.sender, "record permission is the user's to decide") { return .error(refused) }
                let word = call.arguments[1].stringValue ?? ""
                guard let permission = RecordPermission(rawValue: word) else {
                    return Self.fail(.badParam, "'\(word.prefix(40))' is not a record permission; expected granted, denied or undetermined")
                }
                return forward(call) { .setRecordPermission($0, app: app, permission) }
            },
            // A sandboxed app learns only its own.
            "RecordPermissions": method("") { [unowned self] call in
                let caller = callers.identity(of: call.sender)
                let entries = core.engine.recordPermissions.filter { caller.maySee(app: $0.key) }.sorted { $0.key < $1.key }
                    .map { BusDictEntry(key: .string($0.key), value: .string($0.value.rawValue)) }
                return .reply([.dictionary(key: "s", value: "s", entries)])
            },
        ]
    }
}
