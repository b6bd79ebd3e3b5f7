// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

extension PolicyEngine {
    mutating func setActive(_ request: RequestID, _ id: SessionID, caller: String, _ active: Bool,
                            _ options: SetActiveOptions) {
        guard let session = ownedSession(request, id, caller) else { return }
        let result: Result<ReplyValue, AudioSessionError>
        if active {
            result = activateAsAsked(session).map { .done }
        } else if session.waitingTurn != nil {
            withdrawTurn(id)
            result = .success(.done)
        } else if session.runningStreams > 0 {
            result = .failure(AudioSessionError(
                .isBusy, "\(id) still has \(session.runningStreams) running stream(s); pause or stop them before deactivating"))
        } else {
            if session.isActive {
                deactivate(id, notifyOthers: options.contains(.notifyOthersOnDeactivation))
            }
            result = .success(.done)
        }
        reply(request, to: session, active: active, result)
    }

    /// An app's own activation (`SetActive(true)`, `RequestActivation`): refused while the session may
    /// not start in the background, else under arbitration.
    mutating func activateAsAsked(_ session: Session) -> Result<Void, AudioSessionError> {
        if let refusal = backgroundActivationRefusal(of: session) { return .failure(refusal) }
        return activate(session.id)
    }

    /// Answers an activation or deactivation; a refusal is also recorded.
    mutating func reply(_ request: RequestID, to session: Session, active: Bool, _ result: Result<ReplyValue, AudioSessionError>) {
        emit(.reply(request, result))
        if case .failure(let error) = result {
            emit(.record(.sessionActive(session.id, app: session.appID, active: active, error: error)))
        }
    }

    /// The active session of higher rank that keeps `session` from activating, if any.
    func blocker(of session: Session) -> Session? {
        // Only a session ranked above the ordinary priority can outrank an ordinary one.
        let candidates = session.rank >= SessionPolicy.ordinaryPriority ? sessions.activeRankedIDs : sessions.activeIDs
        return candidates.compactMap { sessions[$0] }
            .filter { $0.id != session.id && $0.rank > session.rank }
            .max { ($0.rank, $1.id) < ($1.rank, $0.id) }
    }

    /// Whether a session, activating, may interrupt anyone: a mixable session that is no call, no
    /// alert and does not interrupt spoken audio interrupts nobody.
    func mayInterrupt(_ session: Session) -> Bool {
        !session.mixesWithOthers || session.configuration.isCall || session.policy.isAlert
            || session.configuration.options.contains(.interruptSpokenAudioAndMixWithOthers)
    }

    /// Whether `interrupter`, activating, interrupts `victim`.
    func interrupts(_ interrupter: Session, _ victim: Session) -> Bool {
        guard victim.id != interrupter.id, victim.isActive else { return false }
        if interrupter.configuration.isCall { return true }  // the phone always wins
        guard victim.rank <= interrupter.rank, victim.policy.whenInterrupted != .mix else { return false }
        if interrupter.policy.isAlert {
            return !victim.prefersNoInterruptionsFromSystemAlerts
        }
        if interrupter.configuration.options.contains(.interruptSpokenAudioAndMixWithOthers)
            && victim.configuration.mode == .spokenAudio
        {
            return true
        }
        return !interrupter.mixesWithOthers && !victim.mixesWithOthers
    }

    /// Activates a session: arbitration against the others, then the interruptions and ducks it causes.
    mutating func activate(_ id: SessionID) -> Result<Void, AudioSessionError> {
        guard var session = sessions[id] else {
            return .failure(AudioSessionError(.expiredSession, "\(id) does not exist"))
        }
        guard !session.isActive else { return .success(()) }
        if !session.mixesWithOthers, let blocker = blocker(of: session) {
            let what = blocker.configuration.isCall ? "a call" : (blocker.policy.isAlert ? "an alert" : "a session")
            return .failure(AudioSessionError(
                .insufficientPriority, "\(what) of higher priority is active (\(blocker.appID), \(blocker.id))"))
        }
        activationCounter += 1
        session.isActive = true
        session.activationSerial = activationCounter
        session.autoDeactivateAt = nil
        session.waitingTurn = nil
        // Taking the audio back ends this session's interruptions by other sessions: it is told so,
        // without shouldResume, since it resumed by itself.
        let wasInterrupted = session.isInterrupted
        session.interrupters = session.interrupters.filter {
            if case .microphoneMuted = $0 { return true } else { return false }
        }
        session.pausedPlayer = false
        sessions[id] = session
        if wasInterrupted && !session.isInterrupted {
            emit(.interruption(id, .ended, reason: .default, options: [], interrupter: nil))
        }
        emit(.record(.sessionActive(id, app: session.appID, active: true, error: nil)))
        refreshEffects(ofStreamsIn: id, fade: .zero, why: "\(id) activated")

        interruptOthers(id)
        // A call already in progress silences a mixable newcomer too.
        if !session.configuration.isCall, let call = sessions.activeCallIDs.sorted().first(where: { $0 != id }) {
            interrupt(id, by: call, fade: .zero)
        }
        if session.configuration.options.contains(.duckOthers) { refreshDucking(by: id, fade: session.policy.duckFade) }
        // Spoken audio that starts while a voice speaks waits for it, paused.
        if session.pausesForVoices, let speaker = duckingSessions.sorted().first(where: { $0 != id }) {
            interrupt(id, by: speaker, fade: .zero, forVoice: true)
        }
        switchBluetoothProfileIfNeeded(id)
        refreshMultiRoute(id)
        checkMicrophoneMuted(id)
        return .success(())
    }

    /// Interrupts the active sessions that an active session interrupts.
    mutating func interruptOthers(_ id: SessionID) {
        guard let session = sessions[id], mayInterrupt(session) else { return }
        for victimID in sessions.activeIDs.sorted() where sessions[victimID].map({ interrupts(session, $0) }) == true {
            interrupt(victimID, by: id)
        }
    }

    /// Ends a session's activation, and the interruptions and ducks it caused (the ducks fade back
    /// over the session's duck fade, or `undoFade` when given).
    mutating func deactivate(_ id: SessionID, notifyOthers: Bool, undoFade: Duration? = nil) {
        guard var session = sessions[id], session.isActive else { return }
        session.isActive = false
        session.autoDeactivateAt = nil
        sessions[id] = session
        emit(.record(.sessionActive(id, app: session.appID, active: false, error: nil)))
        endInterruptions(causedBy: id, shouldResume: notifyOthers)
        refreshDucking(by: id, fade: undoFade ?? session.policy.duckFade)
        restoreCardProfile(of: id)
        sessions[id]?.matchedBluetoothOutput = nil
        refreshMultiRoute(id)
    }

    /// Interrupts `victimID` because `interrupterID` activated. Its streams fade out over its policy's
    /// interruption fade, or `fade` when given (a stream that is just starting is muted at once).
    /// With `forVoice`, the victim is spoken audio paused while the interrupter's voice ducks others
    /// (``Interrupter/voice(_:)``): its player is paused whatever its policy says about interruptions.
    mutating func interrupt(_ victimID: SessionID, by interrupterID: SessionID, fade: Duration? = nil, forVoice: Bool = false) {
        guard var victim = sessions[victimID], let interrupter = sessions[interrupterID] else { return }
        let first = victim.interrupters.isEmpty
        if first { victim.wasPlayingWhenInterrupted = victim.playingOutputs > 0 || victim.awaitsOwnPlay }
        victim.interrupters.insert(forVoice ? .voice(interrupterID) : .session(interrupterID))
        victim.isActive = false
        victim.autoDeactivateAt = nil
        sessions[victimID] = victim
        if victim.configuration.options.contains(.duckOthers) {
            refreshDucking(by: victimID, fade: victim.policy.duckFade)
        }
        if first {
            emit(.interruption(victimID, .began, reason: .default, options: [], interrupter: interrupter.appID,
                               interrupterSession: interrupterID))
            if victim.drivesPlayer, forVoice || victim.policy.whenInterrupted == .pause, victim.wasPlayingWhenInterrupted
            {
                sessions[victimID]?.pausedPlayer = true
                emit(.pausePlayer(victimID, why: "interrupted by \(interrupter.appID) (\(interrupterID))"))
            }
        }
        refreshEffects(ofStreamsIn: victimID, fade: fade ?? victim.policy.interruptionFade,
                       why: "interrupted by \(interrupter.appID) (\(interrupterID))")
    }

    /// Ends every interruption `interrupterID` caused; those left uninterrupted get `ended`.
    mutating func endInterruptions(causedBy interrupterID: SessionID, shouldResume: Bool) {
        let appID = sessions[interrupterID]?.appID
        for victimID in sessions.interruptedIDs.sorted() {
            guard sessions[victimID]?.interrupters.contains(.session(interrupterID)) == true else { continue }
            sessions[victimID]?.interrupters.remove(.session(interrupterID))
            refreshEffects(ofStreamsIn: victimID, fade: .zero, why: "interruption by \(interrupterID) ended")
            if sessions[victimID]?.interrupters.isEmpty == true {
                interruptionEnded(victimID, shouldResume: shouldResume, interrupter: appID, reason: .default,
                                  interrupterSession: interrupterID)
            }
        }
    }

    mutating func interruptionEnded(_ id: SessionID, shouldResume asked: Bool, interrupter: String?,
                                    reason: InterruptionReason, interrupterSession: SessionID? = nil) {
        guard let session = sessions[id] else { return }
        // A session the user took back during the interruption is not told to resume.
        let shouldResume = asked && session.takenBack == nil
        sessions[id]?.takenBack = nil
        emit(.interruption(id, .ended, reason: reason, options: shouldResume ? .shouldResume : [],
                           interrupter: interrupter, interrupterSession: interrupterSession,
                           takenBack: asked ? session.takenBack : nil))
        let resume: Bool
        switch session.policy.resume {
        case .never: resume = false
        case .onShouldResume: resume = shouldResume
        case .ifWasPlaying: resume = shouldResume && session.wasPlayingWhenInterrupted
        }
        if session.pausedPlayer {
            sessions[id]?.pausedPlayer = false
            if resume {
                sessions[id]?.ownPlaysUnseen += 1
                emit(.playPlayer(id, why: "interruption ended with shouldResume"))
            }
        }
        guard session.kind == .policy else { return }
        // A policy session whose streams still run takes the audio back, or, if a higher-priority
        // session is active now, is interrupted by that one instead of being left in between.
        autoActivateIfNeeded(id)
    }

    /// The secondary-audio hint: `begin` while another session is primary audio, `end` when none is.
    /// Refreshed once, at the end of every step (``handle(_:at:)``): a session hears the step's net
    /// change, not its stages (a call that starts while music plays is not told `begin`, then `end`).
    mutating func refreshSecondaryAudioHints() {
        let primaries = sessions.primaryIDs
        func silenced(_ id: SessionID) -> Bool { primaries.count > (primaries.contains(id) ? 1 : 0) }
        // The hinted sessions are every session when two play primary audio, all but the one when one
        // does, and none otherwise: when they already are, nothing changed, whatever the count.
        let hinted = sessions.hintedIDs
        let settled = switch primaries.count {
        case 0: hinted.isEmpty
        case 1: hinted.count == sessions.count - 1 && !hinted.contains(primaries.first!)
        default: hinted.count == sessions.count
        }
        guard !settled else { return }
        let changed = sessions.keys.filter { silenced($0) != hinted.contains($0) }
        for id in changed.sorted() {
            sessions[id]?.secondaryAudioShouldBeSilenced = silenced(id)
            emit(.secondaryAudioHint(id, silenced(id) ? .begin : .end))
        }
    }

    // MARK: Policy sessions

    /// Activates a policy session whose stream started, as its policy says.
    mutating func autoActivateIfNeeded(_ id: SessionID) {
        guard let session = sessions[id], session.activatesAutomatically else { return }
        if session.quietAfterCall {
            if session.runningStreams == 0 { sessions[id]?.quietAfterCall = false }
            return
        }
        if session.runningStreams > 0 {
            sessions[id]?.autoDeactivateAt = nil
            guard !session.isActive, !session.isInterrupted else { return }
            if case .failure = activate(id), let blocker = blocker(of: session) {
                // A stream that starts while a higher-priority session is active starts interrupted.
                interrupt(id, by: blocker.id, fade: .zero)
            }
        } else if session.isActive && session.autoDeactivateAt == nil {
            let grace = session.policy.activation == .perStream ? Duration.zero : session.policy.releaseGrace
            sessions[id]?.autoDeactivateAt = now + grace
            timedSessions.insert(id)
        }
    }

    mutating func autoDeactivateDue(_ id: SessionID) {
        guard let session = sessions[id] else { return }
        sessions[id]?.autoDeactivateAt = nil
        guard session.runningStreams == 0 else { return }
        deactivate(id, notifyOthers: session.policy.notifiesOthersOnDeactivation)
        if session.streamIDs.isEmpty && session.kind == .policy { releaseSession(id) }
    }

    // MARK: The microphone

    /// Interrupts input sessions whose microphone is muted (`builtInMicMuted`) unless they opted out.
    mutating func checkMicrophoneMuted(_ id: SessionID) {
        guard let session = sessions[id], session.configuration.category.hasInput,
            !session.configuration.options.contains(.overrideMutedMicrophoneInterruption)
        else { return }
        let muted = routeDevices(of: session, .input).filter { devices[$0]?.mute == true }
        guard session.isActive, let device = muted.first else { return }
        let first = session.interrupters.isEmpty
        sessions[id]?.interrupters.insert(.microphoneMuted(device))
        sessions[id]?.isActive = false
        if first { emit(.interruption(id, .began, reason: .builtInMicMuted, options: [], interrupter: nil)) }
    }

    /// The microphone came back: sessions it interrupted get `ended` with `shouldResume`.
    mutating func microphoneUnmuted(_ device: DeviceID) {
        for id in sessions.interruptedIDs.sorted() where sessions[id]?.interrupters.contains(.microphoneMuted(device)) == true {
            sessions[id]?.interrupters.remove(.microphoneMuted(device))
            if sessions[id]?.interrupters.isEmpty == true {
                interruptionEnded(id, shouldResume: true, interrupter: nil, reason: .builtInMicMuted)
            }
        }
    }
}
