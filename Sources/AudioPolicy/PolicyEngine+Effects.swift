// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

extension PolicyEngine {
    /// The mute causes and duck levels the sessions' states ask for on a stream.
    func desiredCauses(of stream: TrackedStream, in session: Session?) -> (mutes: Set<MuteCause>, ducks: [DuckCause: Double]) {
        guard !isShuttingDown, let sessionID = stream.session, let session, session.id == sessionID else { return ([], [:]) }
        var mutes: Set<MuteCause> = []
        var ducks: [DuckCause: Double] = [:]
        let output = stream.info.id.direction == .output
        for case .session(let interrupterID) in session.interrupters {
            switch session.policy.whenInterrupted {
            case .pause, .mix: mutes.insert(.interruption(interrupterID))
            case .duck: if output { ducks[.interruption(interrupterID)] = session.policy.duckLevel }
            }
        }
        // Spoken audio paused for another app's voice is silent while it is paused.
        for case .voice(let speakerID) in session.interrupters { mutes.insert(.interruption(speakerID)) }
        if !output && recordPermission(of: session) == .denied { mutes.insert(.recordPermissionDenied) }
        if !output && refusesRecording(session) { mutes.insert(.categoryWithoutInput) }
        if output && refusesPlayback(session) { mutes.insert(.categoryWithoutOutput) }
        if session.waitingTurn != nil { mutes.insert(.waitingForTurn) }
        if output && session.configuration.category.isSilencedBySilentModeAndLock {
            if silentMode { mutes.insert(.silentMode) }
            if screenLocked { mutes.insert(.screenLock) }
        }
        if output && !session.pausesForVoices {
            for duckerID in duckingSessions where duckerID != sessionID {
                if let ducker = sessions[duckerID] { ducks[.ducker(duckerID)] = ducker.policy.duckLevel }
            }
        }
        // The server's own policy ducks the streams on its role sinks: not twice.
        return (mutes, isDuckedByServerPolicy(stream) ? [:] : ducks)
    }

    /// Brings the effects of a session's streams up to date. A session with more streams than the server
    /// can step through a fade in time (``EngineSettings/maxFadingStreams``) changes at once.
    mutating func refreshEffects(ofStreamsIn id: SessionID, fade: Duration, why: String) {
        guard let session = sessions[id] else { return }
        let fade = session.streamIDs.count > settings.maxFadingStreams ? .zero : fade
        // The session is read once for all its streams: their effects change the streams, not it.
        for streamID in session.streamIDs.sorted() { refreshEffects(of: streamID, in: session, fade: fade, why: why) }
    }

    /// Brings a stream's causes up to date and moves its levels toward what they ask for.
    mutating func refreshEffects(of id: StreamID, fade: Duration, why: String) {
        refreshEffects(of: id, in: readInPlace(id, { $0.session })?.flatMap { sessions[$0] }, fade: fade, why: why)
    }

    private mutating func refreshEffects(of id: StreamID, in session: Session?, fade: Duration, why: String) {
        guard var stream = streams.removeValue(forKey: id) else { return }
        let desired = desiredCauses(of: stream, in: session)
        stream.overriddenMutes.formIntersection(desired.mutes)
        stream.overriddenDucks.formIntersection(desired.ducks.keys)
        stream.muteCauses = desired.mutes.subtracting(stream.overriddenMutes)
        stream.duckCauses = desired.ducks.filter { !stream.overriddenDucks.contains($0.key) }
        let next = reconcile(&stream, fade: fade, why: why)
        streams[id] = stream
        finishReconcile(id, next)
    }

    /// Starts or adjusts ducking by `id`: while it is active with `duckOthers`, every other session's
    /// output streams are lowered.
    mutating func refreshDucking(by id: SessionID, fade: Duration) {
        let ducks = sessions[id].map { $0.isActive && $0.configuration.options.contains(.duckOthers) } ?? false
        guard ducks != duckingSessions.contains(id) else { return }
        if ducks { duckingSessions.insert(id) } else { duckingSessions.remove(id) }
        if ducks { pauseSpokenAudio(for: id) } else { resumeSpokenAudio(after: id) }
        let why = ducks ? "ducked by \(id)" : "ducking by \(id) ended"
        for streamID in streams.keys.sorted() where streamID.direction == .output {
            guard let owner = readInPlace(streamID, { $0.session }) ?? nil, owner != id else { continue }
            refreshEffects(of: streamID, fade: fade, why: why)
        }
    }

    /// Silent mode or the lock changed: ambient and soloAmbient sessions' outputs follow.
    mutating func refreshSilencedSessions() {
        let why = "silent mode \(silentMode ? "on" : "off"), screen \(screenLocked ? "locked" : "unlocked")"
        for id in sessions.keys.sorted() where sessions[id]?.configuration.category.isSilencedBySilentModeAndLock == true {
            refreshEffects(ofStreamsIn: id, fade: .zero, why: why)
        }
    }

    // MARK: Moving levels

    /// Moves the stream's applied levels toward its target, with a fade where it helps, writing the
    /// journal first and clearing it once everything is undone.
    mutating func reconcile(_ id: StreamID, fade: Duration, why: String) {
        guard var stream = streams.removeValue(forKey: id) else { return }
        let next = reconcile(&stream, fade: fade, why: why)
        streams[id] = stream
        finishReconcile(id, next)
    }

    /// What is left to do once a reconciled stream is back in the table.
    private enum ReconcileFollowUp { case nothing, settleJournal, startFade }

    private mutating func finishReconcile(_ id: StreamID, _ next: ReconcileFollowUp) {
        switch next {
        case .nothing: return
        case .settleJournal: break
        case .startFade:
            fadingStreams.insert(id)
            if let end = stepFade(id) { return setVolumeUnderMute(id, end.volume, why: end.why) }
        }
        settleJournal(id)
    }

    /// The work of ``reconcile(_:fade:why:)`` on a stream taken out of the table, so that its sets and
    /// arrays change in place instead of being copied from the table's value.
    private mutating func reconcile(_ stream: inout TrackedStream, fade: Duration, why: String) -> ReconcileFollowUp {
        // A stream whose levels are not known yet gets no command (``TrackedStream/levelsUnknown``).
        if stream.levelsUnknown { return .nothing }
        let target = stream.target
        if let running = stream.fade {
            let finalLevels = StreamLevels(volume: running.muteThenSet ?? running.to, mute: running.muteThenSet != nil)
            if finalLevels == target {  // already on its way there
                // A fade moves the volume only: a mute that is not what the target asks for (the
                // server's memory of the app's earlier stream, given during a duck) is put right now.
                if running.muteThenSet == nil && stream.applied.mute != target.mute { setMute(&stream, target.mute, why: why) }
                return .nothing
            }
            stream.fade = nil
        }
        let current = stream.applied
        if current == target { return .settleJournal }
        writeJournal(&stream, applied: target)
        recordEffect(&stream, from: current, to: target, why: why)
        let steps = fade > .zero && stream.info.id.direction == .output
        if target.mute && !current.mute {
            if steps && current.volume.level > 0 {
                stream.fade = Fade(from: current.volume, to: current.volume.scaled(by: 0), start: now, duration: fade,
                                   nextStep: now, muteThenSet: target.volume, why: why)
            } else {
                setMute(&stream, true, why: why)
                if target.volume != current.volume { setVolume(&stream, target.volume, why: why) }
            }
        } else if !target.mute && current.mute {
            if target.volume != current.volume { setVolume(&stream, target.volume, why: why) }
            setMute(&stream, false, why: why)
        } else if target.mute {
            setVolume(&stream, target.volume, why: why)
        } else if steps {
            stream.fade = Fade(from: current.volume, to: target.volume, start: now, duration: fade, nextStep: now,
                               muteThenSet: nil, why: why)
        } else {
            setVolume(&stream, target.volume, why: why)
        }
        return stream.fade != nil ? .startFade : .settleJournal
    }

    /// One event-log record per change the bridge starts (not per fade step). `stream` is read where it
    /// lies, not changed (a copy would retain all of it).
    mutating func recordEffect(_ stream: inout TrackedStream, from current: StreamLevels, to target: StreamLevels, why: String) {
        var kinds: [String] = []
        if target.mute != current.mute { kinds.append(target.mute ? "mute" : "unmute") }
        if target.volume != current.volume { kinds.append(target.volume == stream.user.volume ? "unduck" : "duck") }
        guard !kinds.isEmpty else { return }
        let causes = stream.effectCauses
        let level = stream.duckCauses.values.min()
        for kind in kinds {
            emit(.record(.effect(kind, stream: stream.info.id, session: stream.session, why: why, causes: causes,
                                 level: kind == "duck" ? level : nil)))
        }
    }

    mutating func setMute(_ stream: inout TrackedStream, _ mute: Bool, why: String) {
        stream.muteRecord.send(mute)
        stream.touched = true
        stream.bridgeSet.note(mute: mute, user: stream.user.mute)
        emit(.setStreamMute(stream.info.id, mute, why: why))
    }

    mutating func setVolume(_ stream: inout TrackedStream, _ volume: ChannelVolumes, why: String) {
        stream.volumeRecord.send(volume)
        stream.touched = true
        stream.bridgeSet.note(volume: volume, user: stream.user.volume)
        emit(.setStreamVolume(stream.info.id, volume, why: why))
    }

    mutating func writeJournal(_ stream: inout TrackedStream, applied: StreamLevels) {
        let entry = JournalEntry(stream: stream.info.id, restoreKey: stream.info.restoreKey, original: stream.user,
                                 applied: applied)
        guard stream.journaled != entry else { return }
        stream.journaled = entry
        emit(.journalWrite(entry))
    }

    /// Clears the journal entry of a stream that is back to the user's levels with nothing in force.
    mutating func settleJournal(_ id: StreamID) {
        guard readInPlace(id, { $0.journaled != nil && !$0.hasEffectInForce }) == true else { return }
        streams[id]?.journaled = nil
        emit(.journalClear(id))
    }

    /// Steps every fade that is due. The fades that end in a mute mute their streams first, all of them,
    /// and set the volumes back under the mutes after: the server carries the commands out in order, one
    /// at a time, and the ear waits for the mutes only.
    ///
    /// A step waits until the server has answered every mute and volume sent before it
    /// (``levelCommandsUnanswered``; DESIGN §3, *Order, not timing*). A server slow to carry out level
    /// commands (every one rewinds the sink, and a player's two-second buffer makes that a millisecond
    /// or more) would otherwise take the later steps in the same turn of its loop as the first, and
    /// announce none of them until the fade is over. The fade keeps its length as far as the server
    /// allows: a late step is at the level its time calls for.
    mutating func stepFades() {
        if levelCommandsUnanswered { return }
        var volumesUnderMutes: [(id: StreamID, end: FadeEnd)] = []
        for id in fadingStreams.sorted() {
            if isFadeDue(id), let end = stepFade(id) { volumesUnderMutes.append((id, end)) }
        }
        for (id, end) in volumesUnderMutes { setVolumeUnderMute(id, end.volume, why: end.why) }
        for id in fadingStreams where readInPlace(id, { $0.fade == nil }) ?? true { fadingStreams.remove(id) }
    }

    /// Whether a fade is under way: its next step waits until the server is done with the level
    /// commands sent before it (``levelCommandsUnanswered``).
    public var fadesUnderWay: Bool { !fadingStreams.isEmpty }

    /// Whether a fade's step was due at the last step and held there for the server's answers
    /// (``levelCommandsUnanswered``): a step that was due and not held was taken. The shell hands the
    /// engine a tick once the answers are in.
    public var fadeStepOverdue: Bool {
        fadingStreams.contains { streams[$0]?.fade.map { $0.nextStep <= now } == true }
    }

    /// Whether a stream fades and its fade's next step is due.
    mutating func isFadeDue(_ id: StreamID) -> Bool {
        let now = now
        return readInPlace(id) { $0.fade.map { $0.nextStep <= now } } == true
    }

    /// What is left of a fade that ended in a mute: the volume to set under it, and why.
    struct FadeEnd {
        var volume: ChannelVolumes
        var why: String
    }

    /// Sets the volume a fade that ended in a mute leaves its stream at, and settles its journal entry.
    mutating func setVolumeUnderMute(_ id: StreamID, _ final: ChannelVolumes, why: String) {
        guard var stream = streams.removeValue(forKey: id) else { return }
        if final != stream.applied.volume { setVolume(&stream, final, why: why) }
        streams[id] = stream
        settleJournal(id)
    }

    /// The interval between two steps of the fades running now: ``EngineSettings/fadeStep``, longer
    /// when more than ``EngineSettings/streamsPerFadeStep`` streams fade at once, since the server
    /// carries every step of every stream and a hundred streams stepping every 10 ms would bury the
    /// first step (the one the ear hears) under the later ones.
    var fadeStep: Duration {
        settings.fadeStep * max(1, Double(fadingStreams.count) / Double(settings.streamsPerFadeStep))
    }

    /// Emits the next volume of a fade, and finishes it when its time is up. The ramp is spread over
    /// one step more than fits in the fade, so that the first step, sent with the decision, is already
    /// past the starting level (a fade never delays the first audible change) and the last one, the
    /// mute where there is one, lands at the fade's end. A fade that ends in a mute does not step to
    /// silence first: it returns the volume to set under the mute, which the caller sets.
    mutating func stepFade(_ id: StreamID) -> FadeEnd? {
        guard var stream = streams.removeValue(forKey: id) else { return nil }
        guard var fade = stream.fade else {
            streams[id] = stream
            return nil
        }
        let elapsed = now.since(fade.start)
        if elapsed >= fade.duration {
            stream.fade = nil
            guard let final = fade.muteThenSet else {
                if stream.applied.volume != fade.to { setVolume(&stream, fade.to, why: fade.why) }
                streams[id] = stream
                settleJournal(id)
                return nil
            }
            setMute(&stream, true, why: fade.why)
            streams[id] = stream
            return FadeEnd(volume: final, why: fade.why)
        }
        let step = fadeStep
        let fraction = min(1, (elapsed + step) / (fade.duration + step))
        let volume = fade.from.interpolated(to: fade.to, fraction: fraction)
        if volume != stream.applied.volume { setVolume(&stream, volume, why: fade.why) }
        fade.nextStep = min(now + step, fade.start + fade.duration)
        stream.fade = fade
        streams[id] = stream
        return nil
    }

    // MARK: What the server reports back

    /// Takes a stream's reported levels, volume and mute alike, as ``LevelRecord/absorb(_:queryPrecedesCommand:answersMayPrecedeCommands:)``
    /// tells them apart by order: ours landing, stale, the user's before the bridge's command (it moves
    /// the user's level under the effects, which stay), the user's after it (it overrides them), or a
    /// command of the bridge's carried out after a level taken for an override (the level came first:
    /// the effects it lifted stand on it again). The server's memory of the app is told apart first.
    mutating func absorbReportedLevels(_ id: StreamID, _ reported: StreamLevels, precedingCommand: Bool = false,
                                       answersMayPrecedeCommands: Bool = false) {
        let remembered = absorbServerMemory(id, reported)
        guard var stream = streams[id] else { return }
        let volume = stream.volumeRecord.absorb(reported.volume, queryPrecedesCommand: precedingCommand,
                                                answersMayPrecedeCommands: answersMayPrecedeCommands)
        let mute = stream.muteRecord.absorb(reported.mute, queryPrecedesCommand: precedingCommand,
                                            answersMayPrecedeCommands: answersMayPrecedeCommands)
        switch volume {
        case .usersBeforeOurCommand: stream.user.volume = reported.volume
        case .usersAfterOurCommand:
            stream.user.volume = reported.volume
            stream.liftedAtOverride.ducks = stream.duckCauses
            stream.overriddenDucks.formUnion(stream.duckCauses.keys)
            stream.duckCauses = [:]
            if stream.fade?.muteThenSet == nil { stream.fade = nil }
        case .ourCommandAfterUsers:
            for (cause, level) in stream.liftedAtOverride.ducks where stream.overriddenDucks.remove(cause) != nil {
                stream.duckCauses[cause] = level
            }
        case .ours, .stale: break
        }
        switch mute {
        case .usersBeforeOurCommand: stream.user.mute = reported.mute
        case .usersAfterOurCommand:
            stream.user.mute = reported.mute
            if !reported.mute {
                stream.liftedAtOverride.mutes = stream.muteCauses
                stream.overriddenMutes.formUnion(stream.muteCauses)
                stream.muteCauses = []
                stream.fade = nil
            }
        case .ourCommandAfterUsers:
            for cause in stream.liftedAtOverride.mutes where stream.overriddenMutes.remove(cause) != nil {
                stream.muteCauses.insert(cause)
            }
        case .ours, .stale: break
        }
        // What an override lifted is kept only while a command it may have preceded is still in flight.
        if stream.volumeRecord.inFlightAtOverride.isEmpty { stream.liftedAtOverride.ducks = [:] }
        if stream.muteRecord.inFlightAtOverride.isEmpty { stream.liftedAtOverride.mutes = [] }
        let userChanged = volume == .usersAfterOurCommand || mute == .usersAfterOurCommand
        let baseChanged = volume == .usersBeforeOurCommand || mute == .usersBeforeOurCommand
        let orderFoundLate = volume == .ourCommandAfterUsers || mute == .ourCommandAfterUsers
        if userChanged || baseChanged, var entry = stream.journaled {
            entry.original = stream.user
            entry.applied = stream.target
            stream.journaled = entry
            emit(.journalWrite(entry))
        }
        let fadeLeft = stream.fade.map { ($0.start + $0.duration).since(now) } ?? .zero
        streams[id] = stream
        if userChanged {
            reconcile(id, fade: .zero, why: "the user changed the stream's levels")
        } else if baseChanged {
            reconcile(id, fade: fadeLeft,
                      why: "the user changed the stream's levels just before the bridge's command; its effects stand on the new level")
        } else if orderFoundLate {
            reconcile(id, fade: .zero,
                      why: "a command the bridge had sent landed after the user's change, so the change came first; the effects stand on the user's level")
        } else if remembered {
            reconcile(id, fade: .zero, why: Self.serverMemoryReason)
        }
        settleJournal(id)
    }
}

extension PolicyEngine {
    /// Undoes every effect at once (no fades), for a bridge that is stopping.
    mutating func shutDown() {
        isShuttingDown = true
        for (id, combined) in combinedOutputs.sorted(by: { $0.key < $1.key }) {
            emit(.removeCombinedOutput(name: combined.name, why: "the bridge is stopping"))
            combinedOutputs[id] = nil
        }
        for id in streams.keys.sorted() {
            refreshEffects(of: id, fade: .zero, why: "the bridge is stopping")
            if let stream = streams[id], stream.touched, let key = stream.info.restoreKey {
                emit(.rememberStreamLevels(restoreKey: key, stream.user,
                                           why: "the bridge is stopping; the app's next stream starts as the user had it"))
            }
        }
    }
}
