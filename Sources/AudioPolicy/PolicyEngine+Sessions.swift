// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

extension PolicyEngine {
    mutating func createExplicitSession(_ request: RequestID, _ info: SessionRequest) {
        var policy = SessionPolicy.explicitDefault
        if let name = info.policyName {
            guard let named = policySet.policy(named: name) else {
                emit(.reply(request, .failure(AudioSessionError(.badParam, "no policy named '\(name)' is loaded"))))
                return
            }
            policy = named
            policy.activation = .explicit
        }
        guard sessionByToken[info.token] == nil else {
            emit(.reply(request, .failure(AudioSessionError(.badParam, "stream token already in use"))))
            return
        }
        var session = newSession(kind: .explicit, appID: info.appID, policy: policy)
        session.owner = info.owner
        session.ownerPID = info.ownerPID
        session.ownerBinary = info.ownerBinary
        session.token = info.token
        sessionByToken[info.token] = session.id
        if let pid = info.ownerPID { explicitSessionsByOwner[pid, default: []].insert(session.id) }
        addSession(session)
        emit(.reply(request, .success(.sessionCreated(session.id, token: info.token))))
        adoptStreams(for: session.id)
    }

    mutating func newSession(kind: SessionKind, appID: String, policy: SessionPolicy) -> Session {
        let id = SessionID(nextSessionNumber)
        nextSessionNumber += 1
        var session = Session(id: id, kind: kind, appID: appID, policy: policy)
        session.lastRouteReport = eventSerial
        return session
    }

    mutating func addSession(_ session: Session) {
        var session = session
        session.reportedRoute = computeRoute(session)
        sessions[session.id] = session
        emit(.sessionAdded(session.id))
        emit(.record(.sessionCreated(session.id, app: session.appID, kind: session.kind, policy: session.policy.name,
                                     why: session.policyReason)))
    }

    /// Checks that `caller` owns the session; replies with the error when not.
    mutating func ownedSession(_ request: RequestID, _ id: SessionID, _ caller: String) -> Session? {
        guard let session = sessions[id] else {
            emit(.reply(request, .failure(AudioSessionError(.expiredSession, "\(id) does not exist (released?)"))))
            return nil
        }
        guard session.kind == .explicit, session.owner == caller else {
            emit(.reply(request, .failure(AudioSessionError(
                .accessDenied, "\(id) belongs to another connection; only its owner may change it"))))
            return nil
        }
        return session
    }

    mutating func withOwnedSession(_ request: RequestID, _ id: SessionID, _ caller: String,
                                   _ change: (inout Session) -> Void) {
        guard var session = ownedSession(request, id, caller) else { return }
        change(&session)
        sessions[id] = session
        emit(.reply(request, .success(.done)))
    }

    mutating func releaseRequested(_ request: RequestID?, _ id: SessionID, caller: String?) {
        if let request, let caller {
            guard ownedSession(request, id, caller) != nil else { return }
            releaseSession(id)
            emit(.reply(request, .success(.done)))
        } else {
            releaseSession(id)
        }
    }

    /// The owner's connection is gone (it quit or crashed): its sessions end, and what they did to
    /// others is undone at once, without the fades of an ordinary deactivation.
    mutating func ownerVanished(_ busName: String) {
        for id in sessions(ownedBy: busName) { releaseSession(id, undoFade: .zero) }
    }

    /// Ends a session: its activation ends (telling those it interrupted, as its policy says), its
    /// streams leave it and every effect it caused is undone.
    mutating func releaseSession(_ id: SessionID, undoFade: Duration? = nil) {
        guard let session = sessions[id] else { return }
        withdrawTurn(id)
        if session.isActive {
            deactivate(id, notifyOthers: session.kind == .policy && session.policy.notifiesOthersOnDeactivation,
                       undoFade: undoFade)
        }
        endInterruptions(causedBy: id, shouldResume: false)
        sessions[id]?.interrupters = []
        if let token = session.token { sessionByToken[token] = nil }
        if session.kind == .explicit, let pid = session.ownerPID {
            explicitSessionsByOwner[pid]?.remove(id)
            if explicitSessionsByOwner[pid]?.isEmpty == true { explicitSessionsByOwner[pid] = nil }
        }
        if let key = session.appKey, policySessionByApp[key] == id { policySessionByApp[key] = nil }
        if let key = Self.processKey(session.policy, session.ownerPID), policySessionByApp[key] == id { policySessionByApp[key] = nil }
        let streamIDs = session.streamIDs
        sessions[id] = nil
        refreshMultiRoute(id)
        for streamID in streamIDs.sorted() {
            streams[streamID]?.session = nil
            refreshEffects(of: streamID, fade: .zero, why: "\(id) was released")
        }
        emit(.record(.sessionReleased(id, app: session.appID, kind: session.kind, policy: session.policy.name)))
        emit(.sessionRemoved(id))
    }

    mutating func setConfiguration(_ request: RequestID, _ id: SessionID, caller: String,
                                   _ configuration: SessionConfiguration) {
        guard var session = ownedSession(request, id, caller) else { return }
        let before = session.configuration
        let outputBefore = preferredDevice(of: session, .output)
        session.configuration = configuration
        sessions[id] = session
        emit(.reply(request, .success(.done)))
        emit(.record(.sessionCategory(id, app: session.appID, configuration)))
        if before != configuration {
            refreshDucking(by: id, fade: session.policy.duckFade)
            refreshEffects(ofStreamsIn: id, fade: .zero, why: "category changed")
        }
        // The category may choose another output (multiRoute's combined sink, AirPlay or not): the
        // streams follow when it does; a combined sink about to be made takes them when it appears.
        refreshMultiRoute(id)
        if let now = sessions[id], preferredDevice(of: now, .output) != outputBefore {
            moveStreamsToPreferredDevices(of: id, why: "\(id) changed its category to \(configuration.category)")
        }
        // The category change is always reported, even when the devices stay the same.
        reportRoute(of: id, cause: .categoryChange)
    }

    mutating func setHint(_ request: RequestID, _ id: SessionID, _ caller: String, _ value: Double,
                          in range: ClosedRange<Double>, name: String, _ store: (inout Session) -> Void) {
        guard range.contains(value) else {
            guard ownedSession(request, id, caller) != nil else { return }
            emit(.reply(request, .failure(AudioSessionError(
                .badParam, "preferred \(name) \(value) is out of range \(range.lowerBound)…\(range.upperBound)"))))
            return
        }
        withOwnedSession(request, id, caller, store)
    }

    mutating func overrideOutput(_ request: RequestID, _ id: SessionID, _ caller: String, _ port: OutputOverride) {
        guard var session = ownedSession(request, id, caller) else { return }
        if port == .speaker && session.configuration.category != .playAndRecord {
            emit(.reply(request, .failure(AudioSessionError(
                .badParam, "overrideOutputAudioPort(speaker) needs category playAndRecord, not \(session.configuration.category)"))))
            return
        }
        session.outputOverride = port
        sessions[id] = session
        emit(.reply(request, .success(.done)))
        moveStreamsToPreferredDevices(of: id, why: "\(id) overrode its output to \(port.rawValue)")
        reportRoute(of: id, cause: .override)
    }

    mutating func setPreferredInput(_ request: RequestID, _ id: SessionID, _ caller: String, _ uid: String) {
        guard var session = ownedSession(request, id, caller) else { return }
        if !uid.isEmpty, let refusal = recordingRefusal(of: session) {
            emit(.reply(request, .failure(refusal)))
            return
        }
        if !uid.isEmpty && device(withUID: uid, .input) == nil {
            emit(.reply(request, .failure(AudioSessionError(.badParam, "no input with uid '\(uid)'"))))
            return
        }
        session.preferredInput = uid.isEmpty ? nil : uid
        sessions[id] = session
        emit(.reply(request, .success(.done)))
        moveStreamsToPreferredDevices(of: id, why: "\(id) chose its preferred input")
        reportRoute(of: id, cause: .override)
    }
}

extension PolicyEngine {
    /// Registers (or, with `""`, clears) the MPRIS player of an explicit session: a bus name under
    /// `org.mpris.MediaPlayer2.` that the D-Bus specification allows.
    mutating func setNowPlayingPlayer(_ request: RequestID, _ id: SessionID, _ caller: String, _ name: String) {
        guard name.isEmpty || Self.isMPRISName(name) else {
            emit(.reply(request, .failure(AudioSessionError(
                .badParam, "'\(name.prefix(80))' is not an MPRIS bus name (org.mpris.MediaPlayer2.NAME)"))))
            return
        }
        withOwnedSession(request, id, caller) { $0.nowPlayingPlayer = name.isEmpty ? nil : name }
    }

    /// Whether `name` is a well-known bus name under `org.mpris.MediaPlayer2.`: at most 255 characters,
    /// elements of letters, digits, `_` and `-`, none empty or starting with a digit.
    static func isMPRISName(_ name: String) -> Bool {
        let prefix = "org.mpris.MediaPlayer2."
        guard name.count <= 255, name.hasPrefix(prefix), name.count > prefix.count else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { element in
            guard let first = element.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            return element.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
            }
        }
    }
}
