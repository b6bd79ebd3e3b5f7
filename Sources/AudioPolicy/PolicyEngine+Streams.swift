// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

extension PolicyEngine {
    /// The explicit session a stream joins (DESIGN §2, "Sessions"): by token; else by its own process
    /// being the owner's; else by an ancestor that owns a session of the same app (its application
    /// name, binary or desktop id names the owner's app or executable). A descendant that names another
    /// app, such as a softphone started from a music app's shell, is an app of its own.
    /// A stream from a Flatpak sandbox joins only a session of that Flatpak app, whatever token or
    /// process it has.
    func explicitSession(for info: StreamInfo) -> SessionID? {
        func admits(_ id: SessionID) -> Bool { info.app.flatpakID.map { sessions[id]?.appID == $0 } ?? true }
        if let token = info.token, let id = sessionByToken[token] { return admits(id) ? id : nil }
        guard let own = info.processChain.first else { return nil }
        if let first = explicitSessionsByOwner[own]?.min() { return admits(first) ? first : nil }
        for pid in info.processChain.dropFirst() {
            guard let owned = explicitSessionsByOwner[pid] else { continue }
            if let same = owned.sorted().first(where: { sessions[$0]?.isSameApp(as: info.app) == true && admits($0) }) {
                return same
            }
        }
        return nil
    }

    /// The session a new stream joins: explicit, else the policy session of its app (made if needed,
    /// under `chosen` when that is given), else none.
    mutating func attribute(_ info: StreamInfo, chosen: PolicyChoice? = nil) -> SessionID? {
        if let id = explicitSession(for: info) { return id }
        guard let choice = chosen ?? policySet.choice(for: info.app, role: info.role) else { return nil }
        let policy = choice.policy
        let key = PolicySessionKey(policy: policy.name, app: info.app.key)
        if let id = policySessionByApp[key], sessions[id] != nil { return id }
        // An app whose policy watches for calls is one app per process: Chromium plays as "Chromium"
        // and records as "Chromium input" from one audio process, and the call is both.
        let processKey = Self.processKey(policy, info.processChain.first)
        if let processKey, let id = policySessionByApp[processKey], sessions[id] != nil { return id }
        var session = newSession(kind: .policy, appID: info.app.key, policy: policy)
        session.appKey = key
        session.policyReason = choice.reason
        session.ownerPID = info.processChain.first
        session.processChain = info.processChain
        policySessionByApp[key] = session.id
        if let processKey { policySessionByApp[processKey] = session.id }
        addSession(session)
        return session.id
    }

    /// The key of the one policy session of a process, for a policy that watches for calls.
    static func processKey(_ policy: SessionPolicy, _ pid: Int32?) -> PolicySessionKey? {
        guard policy.calls.whileRecording, let pid else { return nil }
        return PolicySessionKey(policy: policy.name, process: pid)
    }

    /// A new stream; `choice` stands for the policy files' choice (the first moves are decided for a
    /// made-up stream under a given policy).
    mutating func streamAppeared(_ info: StreamInfo, choice: PolicyChoice? = nil) {
        if isTracked(info.id) {
            streamChanged(info)
            return
        }
        let sessionID = attribute(info, chosen: choice)
        streams[info.id] = TrackedStream(info: info, session: sessionID)
        if info.id.direction == .output && !info.corked { playingOutputCount += 1 }
        emit(.record(.streamAdded(info.id, app: info.app.name, role: info.role, session: sessionID)))
        // The server's memory is judged on the stream's levels, so not before they are known.
        let remembered = !info.levelsNotYetKnown && takeRememberedLevels(info.id)
        if let sessionID { join(info.id, sessionID) }
        if remembered { reconcile(info.id, fade: .zero, why: Self.serverMemoryReason) }
    }

    /// Adds a tracked stream to a session: counts, effects, activation, placement and route.
    mutating func join(_ streamID: StreamID, _ sessionID: SessionID) {
        guard isTracked(streamID), sessions[sessionID] != nil else { return }
        watchSoundAsAsked(streamID, by: sessionID)
        guard let isPlaying = readInPlace(streamID, { $0.isPlaying }) else { return }
        streams[streamID]?.session = sessionID
        sessions[sessionID]?.streamIDs.insert(streamID)
        if isPlaying {
            sessions[sessionID]?.quietAfterCall = false
            count(streamID, into: sessionID, by: 1)
            if streamID.direction == .input { askBeforeRecording(sessionID) }
        }
        let refusal = sessions[sessionID].flatMap(streamID.direction == .input ? recordingRefusal : playbackRefusal)
        refreshEffects(of: streamID, fade: .zero, why: refusal?.description ?? "joined \(sessionID)")
        autoActivateIfNeeded(sessionID)
        moveToPreferredDevice(streamID, why: "joined \(sessionID), which prefers another device")
        reportRoute(of: sessionID, cause: .streamChange)
        refreshCall(of: sessionID)
    }

    /// Streams that appeared before their explicit session was created join it now.
    mutating func adoptStreams(for id: SessionID) {
        for streamID in streams.keys.sorted() {
            guard let stream = streams[streamID], explicitSession(for: stream.info) == id,
                stream.session != id
            else { continue }
            if let previous = stream.session { leave(streamID, previous) }
            join(streamID, id)
        }
    }

    mutating func leave(_ streamID: StreamID, _ sessionID: SessionID) {
        guard let isPlaying = readInPlace(streamID, { $0.isPlaying }) else { return }
        sessions[sessionID]?.streamIDs.remove(streamID)
        if isPlaying { count(streamID, into: sessionID, by: -1) }
        streams[streamID]?.session = nil
    }

    private mutating func count(_ id: StreamID, into sessionID: SessionID, by delta: Int) {
        sessions[sessionID]?.runningStreams += delta
        if id.direction == .output { sessions[sessionID]?.playingOutputs += delta }
    }

    /// Whether the engine tracks the stream.
    func isTracked(_ id: StreamID) -> Bool { streams.index(forKey: id) != nil }

    /// Reads a tracked stream where it lies in the table. In a mutating step the dictionary's getter,
    /// `streams[id]?.field`, copies the whole stream (every string, set and table of it retained, then
    /// released) to read one field; the in-place access the table gives for changes copies nothing.
    /// `look` only reads.
    mutating func readInPlace<T>(_ id: StreamID, _ look: (inout TrackedStream) -> T) -> T? {
        guard let index = streams.index(forKey: id) else { return nil }
        return look(&streams.values[index])
    }

    mutating func streamChanged(_ info: StreamInfo) {
        guard let old = streams[info.id] else {
            streamAppeared(info)
            return
        }
        streams[info.id]?.info = info
        playingChanged(info.id, wasPlaying: old.isPlaying)
        // A native PipeWire stream may be reported before its properties are all there (pipewire-pulse
        // announced mpv's `--ao=pipewire` node with no role and took it into no session): a stream in
        // no session whose app or role changed is attributed again.
        if old.session == nil, old.info.app != info.app || old.info.role != info.role || old.info.token != info.token,
            let sessionID = attribute(info)
        {
            join(info.id, sessionID)
        }
        if old.levelsUnknown {
            // The first levels reported are the user's; then what waited for them: the server's memory,
            // and the stream's own effects.
            streams[info.id]?.takeFirstKnownLevels(info.levels)
            let remembered = takeRememberedLevels(info.id)
            reconcile(info.id, fade: .zero, why: remembered ? Self.serverMemoryReason : "its levels are reported")
        } else {
            absorbReportedLevels(info.id, info.levels, precedingCommand: info.levelsPrecedeLastCommand,
                                 answersMayPrecedeCommands: info.answersMayPrecedeCommands)
        }
        if old.info.device != info.device, keepOnDevice(old, movedTo: info.device) || keepOffAirPlay(old, movedTo: info.device) {
            return
        }
        if old.info.device != info.device {
            if isDuckedByServerPolicy(old) != isDuckedByServerPolicy(streams[info.id]!) {
                refreshEffects(of: info.id, fade: .zero, why: "moved to a device whose server policy ducks differently")
            }
            let expected = old.expectedMove
            streams[info.id]?.deviceLost = false
            if expected?.device == info.device { streams[info.id]?.expectedMove = nil }
            if let sessionID = old.session {
                let cause: RouteCause = old.deviceLost ? .orphanLanded
                    : expected?.device == info.device ? expected!.cause : .userMove
                reportRoute(of: sessionID, cause: cause)
            }
        }
    }

    /// A stream started or stopped playing (its cork, or its sound when that is watched): counts,
    /// recording permission and activation follow.
    mutating func playingChanged(_ id: StreamID, wasPlaying: Bool) {
        guard let (isPlaying, session) = readInPlace(id, { ($0.isPlaying, $0.session) }), isPlaying != wasPlaying else { return }
        let delta = isPlaying ? 1 : -1
        if id.direction == .output { playingOutputCount += delta }
        guard let sessionID = session else { return }
        count(id, into: sessionID, by: delta)
        if isPlaying {
            sessions[sessionID]?.quietAfterCall = false
            if id.direction == .input { askBeforeRecording(sessionID) }
            noteUserTouchedPlayer(sessionID)
        }
        refreshCall(of: sessionID)
        autoActivateIfNeeded(sessionID)
    }

    mutating func streamVanished(_ id: StreamID) {
        guard let stream = streams[id] else { return }
        if stream.soundMonitored { emit(.stopWatchingSound(id)) }
        if let sessionID = stream.session { leave(id, sessionID) }
        if id.direction == .output && stream.isPlaying { playingOutputCount -= 1 }
        streams[id] = nil
        if stream.journaled != nil { emit(.journalClear(id)) }
        rememberUserLevels(of: stream)
        emit(.record(.streamRemoved(id, app: stream.info.app.name, role: stream.info.role, session: stream.session)))
        if let sessionID = stream.session {
            refreshCall(of: sessionID)
            autoActivateIfNeeded(sessionID)
            if let session = sessions[sessionID], session.kind == .policy, session.streamIDs.isEmpty,
                !session.isActive, session.autoDeactivateAt == nil
            {
                releaseSession(sessionID)
            } else {
                reportRoute(of: sessionID, cause: .streamChange)
            }
        }
    }

    /// A policy that does not follow route changes keeps its streams where they were when the server
    /// moves them to a new default device: the bridge moves them back.
    mutating func keepOnDevice(_ old: TrackedStream, movedTo device: DeviceID?) -> Bool {
        guard let change = defaultOutputChange, now <= change.until, old.info.device == change.from,
            device == change.to, devices[change.from] != nil, old.expectedMove == nil,
            let sessionID = old.session, let session = sessions[sessionID], session.kind == .policy,
            !session.policy.followsRouteChanges
        else { return false }
        move(old.info.id, to: change.from, cause: .streamChange,
             why: "policy \(session.policy.name) keeps its streams on their device when the default changes")
        return true
    }

    /// A command failed, usually because its stream is gone: that says nothing new. Otherwise the
    /// refusal is recorded, and what was expected of the command forgotten.
    mutating func actionFailed(_ action: PolicyAction, _ error: AudioSessionError) {
        let stream: StreamID? = switch action {
        case .setStreamMute(let id, _, _), .setStreamVolume(let id, _, _), .moveStream(let id, _, _): id
        default: nil
        }
        if let stream, streams[stream] == nil { return }
        if let command = action.commandSubject {
            emit(.record(.commandFailed(command.name, subject: command.subject, error: error.message)))
        }
        switch action {
        case .setStreamMute(let id, let mute, _):
            streams[id]?.muteRecord.refused(mute)
        case .setStreamVolume(let id, let volume, _):
            streams[id]?.volumeRecord.refused(volume)
        case .moveStream(let id, let device, _):
            // Not expected any more, so the next reason to move it there asks again.
            if streams[id]?.expectedMove?.device == device { streams[id]?.expectedMove = nil }
        default: break
        }
    }
}
