// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

extension PolicyEngine {
    /// What keeps a session from setting the gain of its input now, if anything: its category must
    /// record, it must be active, and its route must have an input device.
    private func inputGainBlock(of session: Session) -> ErrorCode? {
        if !session.configuration.category.hasInput { return .cannotStartRecording }
        if !session.isActive { return .sessionNotActive }
        if primaryDevice(of: session.id, .input) == nil { return .resourceNotAvailable }
        return nil
    }

    /// Whether the session may set its input gain now (`IsInputGainSettable`, read for every
    /// property update: no error is made here).
    public func isInputGainSettable(_ session: Session) -> Bool { inputGainBlock(of: session) == nil }

    /// Why a session may not set its input gain now, as the error a call gets.
    public func inputGainRefusal(of session: Session) -> AudioSessionError? {
        switch inputGainBlock(of: session) {
        case nil: nil
        case .cannotStartRecording?:
            AudioSessionError(.cannotStartRecording,
                              "category \(session.configuration.category) has no input; choose record or playAndRecord")
        case .sessionNotActive?:
            AudioSessionError(.sessionNotActive, "\(session.id) is not active; activate it before setting the input gain")
        case let code?:
            AudioSessionError(code, "\(session.id) has no input device on its route")
        }
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
