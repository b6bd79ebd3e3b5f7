// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// Record permission (DESIGN §2): each app id has a decision the user made, else its policy's default
/// stands (`granted` for policy sessions unless their policy says otherwise, `ask` for explicit
/// sessions, which reads as `undetermined`). A denied app's input streams are muted (it records
/// silence). An undetermined app is asked when it requests the permission, or once per run when it
/// starts recording without asking; requests of one app share one question.
extension PolicyEngine {
    /// The permission in force for a session's app: the user's decision, else its policy's default.
    public func recordPermission(of session: Session) -> RecordPermission {
        if let decided = recordPermissions[session.appID] { return decided }
        switch session.policy.recordPermission {
        case .granted: return .granted
        case .denied: return .denied
        case .ask: return .undetermined
        }
    }

    mutating func requestRecordPermission(_ request: RequestID, _ id: SessionID, _ caller: String) {
        guard let session = ownedSession(request, id, caller) else { return }
        let permission = recordPermission(of: session)
        guard permission == .undetermined else {
            emit(.reply(request, .success(.bool(permission == .granted))))
            return
        }
        ask(session, for: request)
    }

    /// Asks once for an undetermined app that starts recording without having asked.
    mutating func askBeforeRecording(_ id: SessionID) {
        guard let session = sessions[id], recordPermission(of: session) == .undetermined,
            !askedUnprompted.contains(session.appID)
        else { return }
        askedUnprompted.insert(session.appID)
        ask(session, for: nil)
    }

    /// Opens the app's question (one at a time: later requests wait for the same answer).
    private mutating func ask(_ session: Session, for request: RequestID?) {
        let app = session.appID
        if permissionQuestions[app] == nil {
            permissionQuestions[app] = []
            emit(.askRecordPermission(app: app, timeout: session.policy.recordPermissionTimeout))
        }
        if let request { permissionQuestions[app]?.append(request) }
    }

    mutating func recordPermissionAnswered(_ app: String, _ answer: RecordPermission?) {
        let requests = permissionQuestions.removeValue(forKey: app) ?? []
        let session = sessions.values.first { $0.appID == app }
        if let answer, answer != .undetermined {
            decide(app, answer, source: "user")
        } else if let session {
            emit(.record(.permission(app: app, recordPermission(of: session), source: "timeout")))
        }
        // Read after the decision: the session's permission is the new one.
        let granted = session.map { recordPermission(of: $0) == .granted } ?? (recordPermissions[app] == .granted)
        for request in requests { emit(.reply(request, .success(.bool(granted)))) }
    }

    mutating func setRecordPermission(_ request: RequestID, _ app: String, _ permission: RecordPermission) {
        let known = recordPermissions[app] != nil || sessions.values.contains { $0.appID == app }
        guard known else {
            let apps = Set(recordPermissions.keys).union(sessions.values.map(\.appID)).sorted()
            emit(.reply(request, .failure(AudioSessionError(
                .badParam, "no app '\(app.prefix(80))' is known; known apps: \(apps.isEmpty ? "none" : apps.joined(separator: ", "))"))))
            return
        }
        decide(app, permission, source: "user")
        emit(.reply(request, .success(.done)))
    }

    mutating func recordPermissionsLoaded(_ decisions: [String: RecordPermission]) {
        for (app, permission) in decisions.sorted(by: { $0.key < $1.key }) where permission != .undetermined {
            recordPermissions[app] = permission
            emit(.record(.permission(app: app, permission, source: "stored")))
        }
        refreshRecording(of: Set(decisions.keys), why: "record permissions loaded")
    }

    /// Keeps the user's decision (`undetermined` forgets it), tells the log, and applies it at once.
    private mutating func decide(_ app: String, _ permission: RecordPermission, source: String) {
        recordPermissions[app] = permission == .undetermined ? nil : permission
        emit(.storeRecordPermission(app: app, permission))
        emit(.record(.permission(app: app, permission, source: source)))
        refreshRecording(of: [app], why: "record permission \(permission.rawValue) for \(app)")
    }

    /// Brings the input streams of these apps' sessions in line with their permission.
    private mutating func refreshRecording(of apps: Set<String>, why: String) {
        for id in sessions.keys.sorted() where sessions[id].map({ apps.contains($0.appID) }) == true {
            sessions.touch(id)  // its RecordPermission property
            refreshEffects(ofStreamsIn: id, fade: .zero, why: why)
        }
    }
}
