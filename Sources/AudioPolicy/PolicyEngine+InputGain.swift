import AudioSessionModel

extension PolicyEngine {
    /// Whether a session may set the gain of its input now: its category records, it is active, and
    /// its route has an input device. The reason it may not, as the error a call would get.
    public func inputGainRefusal(of session: Session) -> AudioSessionError? {
        let category = session.configuration.category
        guard category.hasInput else {
            return AudioSessionError(.cannotStartRecording, "category \(category) has no input; choose record or playAndRecord")
        }
        guard session.isActive else {
            return AudioSessionError(.sessionNotActive, "\(session.id) is not active; activate it before setting the input gain")
        }
        guard primaryDevice(of: session.id, .input) != nil else {
            return AudioSessionError(.resourceNotAvailable, "\(session.id) has no input device on its route")
        }
        return nil
    }

    /// The gain of the session's input: its route's input device volume, 0…1 (the device's own
    /// level, whether muted or not; 0 without an input).
    public func inputGain(of session: Session) -> Double {
        guard session.configuration.category.hasInput, let input = primaryDevice(of: session.id, .input) else { return 0 }
        return min(1, input.volume.level)
    }

    /// `setInputGain`: sets the volume of the session's input device, every channel alike. It is the
    /// app's own request, as a mixer's change is the user's: kept, and never undone.
    mutating func setInputGain(_ request: RequestID, _ id: SessionID, _ caller: String, _ gain: Double) {
        guard let session = ownedSession(request, id, caller) else { return }
        guard gain.isFinite, (0...1).contains(gain) else {
            emit(.reply(request, .failure(AudioSessionError(.badParam, "input gain \(gain) is outside 0…1"))))
            return
        }
        if let refusal = inputGainRefusal(of: session) {
            emit(.reply(request, .failure(refusal)))
            return
        }
        let input = primaryDevice(of: id, .input)!
        let volume = ChannelVolumes(channels: max(1, input.volume.values.count),
                                    value: UInt32((gain * Double(ChannelVolumes.norm)).rounded()))
        emit(.reply(request, .success(.done)))
        // The gain reads the device as the server reports it back.
        guard volume != input.volume else { return }
        emit(.setDeviceVolume(input.id, volume, why: "\(id) set its input gain to \(gain)"))
    }
}
