// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// The options that admit wireless outputs (DESIGN §2, "Bluetooth and AirPlay"):
/// - `allowBluetooth` on a session that records: a Bluetooth headset in A2DP is switched to its
///   hands-free profile for its microphone while the session is active;
/// - `allowBluetoothA2DP` on a playAndRecord session without `allowBluetooth` (it does not need the
///   headset's microphone): the headset is kept in, or switched back to, A2DP for its sound;
/// - `allowAirPlay`: a playAndRecord session plays on an AirPlay (RAOP) sink only with it; without it,
///   its output goes to the first other output when the default is an AirPlay sink, and a stream of it
///   that lands on an AirPlay sink anyway (the server following the default, or a user) is moved off.
/// A profile the bridge switched is switched back when the session's activation ends. A session that
/// is already active when its output becomes another headset (the default moves to it, it connects)
/// gets that headset's profile switched too, once: a profile the user picks on it afterwards stays.
extension PolicyEngine {
    /// The kind of Bluetooth profile a session's options ask of its headset.
    enum WantedBluetoothProfile {
        /// Hands-free, for the headset's microphone (`allowBluetooth` on a session that records).
        case handsFree
        /// A2DP, for better sound (`allowBluetoothA2DP` on playAndRecord without `allowBluetooth`).
        case highQualityOutput
    }

    /// What a session's options ask of a Bluetooth headset, if anything.
    func wantedBluetoothKind(of session: Session) -> WantedBluetoothProfile? {
        let options = session.configuration.options
        if session.configuration.category.hasInput && options.contains(.allowBluetooth) { return .handsFree }
        if session.configuration.category == .playAndRecord && options.contains(.allowBluetoothA2DP) { return .highQualityOutput }
        return nil
    }

    /// A session's first output and what its options ask of it, when they ask something of a
    /// Bluetooth headset and that output is one.
    func bluetoothOutput(of session: Session) -> (output: DeviceInfo, kind: WantedBluetoothProfile)? {
        guard let kind = wantedBluetoothKind(of: session),
            let output = routeDevices(of: session, .output).first.flatMap({ devices[$0] }), output.bluetoothAddress != nil
        else { return nil }
        return (output, kind)
    }

    /// The card profile `kind` asks for on a Bluetooth output, and the profile the card is in now; nil
    /// when the card is already where the options want it.
    func wantedBluetoothProfile(_ kind: WantedBluetoothProfile, on output: DeviceInfo)
        -> (card: CardInfo, profile: CardInfo.Profile, current: CardInfo.Profile)?
    {
        guard let card = output.card.flatMap({ cards[$0] }), let current = Self.activeProfile(of: card, playing: output)
        else { return nil }
        switch kind {
        case .handsFree:
            guard !current.isHandsFree, let handsFree = card.profiles.first(where: { $0.isHandsFree && $0.isAvailable })
            else { return nil }
            return (card, handsFree, current)
        case .highQualityOutput:
            guard current.isHandsFree, let a2dp = card.profiles.first(where: { $0.isHighQualityOutput && $0.isAvailable })
            else { return nil }
            return (card, a2dp, current)
        }
    }

    /// The profile a card is in, given one of its devices. A card reported `off` while that device is
    /// there is in the device's own profile: pipewire-pulse 0.3.65 now and then reports a headset's card
    /// `off` for good while its A2DP sink is there, and a call that ended would otherwise switch the
    /// headset off.
    static func activeProfile(of card: CardInfo, playing device: DeviceInfo) -> CardInfo.Profile? {
        let reported = card.activeProfile.flatMap { name in card.profiles.first { $0.name == name } }
        guard reported == nil || reported?.name == "off" else { return reported }
        let own = device.properties["api.bluez5.profile"] ?? device.properties["bluetooth.protocol"]
        return own.flatMap { name in card.profiles.first { $0.name == name } } ?? reported
    }

    /// Switches the Bluetooth headset of an activating session (or one that became the output of an
    /// active session) to the profile its options ask for, and notes the headset as matched.
    mutating func switchBluetoothProfileIfNeeded(_ id: SessionID) {
        guard let session = sessions[id], let (output, kind) = bluetoothOutput(of: session) else { return }
        sessions[id]?.matchedBluetoothOutput = output.bluetoothAddress
        guard let (card, profile, current) = wantedBluetoothProfile(kind, on: output) else { return }
        // Moving on to another headset: the one the session left gets its profile back.
        if let earlier = session.profileSwitch, earlier.card != card.index { restoreCardProfile(of: id) }
        sessions[id]?.profileSwitch = Session.ProfileSwitch(card: card.index, previous: current.name)
        let why = profile.isHandsFree
            ? "\(id) records with Bluetooth allowed: the headset microphone needs \(profile.name)"
            : "\(id) allows Bluetooth A2DP and does not use the headset microphone: \(profile.name) sounds better"
        emit(.setCardProfile(card: card.index, profile: profile.name, why: why))
    }

    /// Active sessions whose output is now a Bluetooth headset their activation has not matched yet:
    /// that headset gets the profile their options ask for. Runs when a device, a card or the default
    /// changes, the events after which a session's output can be another headset.
    mutating func followBluetoothOutputs() {
        for id in sessions.activeIDs.sorted() {
            guard let session = sessions[id], let output = bluetoothOutput(of: session)?.output,
                output.bluetoothAddress != session.matchedBluetoothOutput
            else { continue }
            switchBluetoothProfileIfNeeded(id)
        }
    }

    mutating func restoreCardProfile(of id: SessionID) {
        guard let change = sessions[id]?.profileSwitch else { return }
        sessions[id]?.profileSwitch = nil
        guard cards[change.card] != nil else { return }
        emit(.setCardProfile(card: change.card, profile: change.previous, why: "\(id) ended its activation"))
    }

    // MARK: AirPlay

    /// Whether a session keeps off AirPlay sinks: playAndRecord without `allowAirPlay`.
    func keepsOffAirPlay(_ session: Session) -> Bool {
        session.configuration.category == .playAndRecord && !session.configuration.options.contains(.allowAirPlay)
    }

    /// Where a session that keeps off AirPlay plays when the default output is an AirPlay sink: the
    /// first output that is a real port and not AirPlay. Nil when the default is no AirPlay sink.
    func outputAvoidingAirPlay(for session: Session) -> DeviceID? {
        guard keepsOffAirPlay(session),
            device(named: defaultDeviceName[.output])?.portDescription.portType == .airPlay
        else { return nil }
        return firstOutputOffAirPlay()
    }

    /// The first output that is a real port and not AirPlay.
    func firstOutputOffAirPlay() -> DeviceID? {
        devices.values
            .filter { $0.id.direction == .output && !$0.isMonitor && ![.airPlay, .virtual].contains($0.portDescription.portType) }
            .map(\.id).min()
    }

    /// A stream of a session that keeps off AirPlay landed on an AirPlay sink, moved there by the
    /// server following a new default (whenever it does so: pipewire-pulse may tell the bridge of the
    /// default after the move) or by a user: it goes to the first other output. Only the bridge's own
    /// move to that sink would be left alone, and it never makes one for such a session.
    mutating func keepOffAirPlay(_ old: TrackedStream, movedTo device: DeviceID?) -> Bool {
        guard let device, devices[device]?.portDescription.portType == .airPlay, old.expectedMove?.device != device,
            let session = old.session.flatMap({ sessions[$0] }), keepsOffAirPlay(session),
            let target = firstOutputOffAirPlay()
        else { return false }
        streams[old.info.id]?.expectedMove = nil  // a move still expected elsewhere is asked for again
        move(old.info.id, to: target, cause: .streamChange, why: "\(session.id) does not allow AirPlay")
        return true
    }

    /// The default output became an AirPlay sink: sessions that keep off AirPlay move their streams.
    mutating func avoidAirPlayDefault() {
        guard device(named: defaultDeviceName[.output])?.portDescription.portType == .airPlay else { return }
        for id in sessions.keys.sorted() where sessions[id].map(keepsOffAirPlay) == true {
            moveStreamsToPreferredDevices(of: id, why: "\(id) does not allow AirPlay")
        }
    }
}

extension CardInfo.Profile {
    /// Whether the profile plays high-quality sound without the headset microphone (Bluetooth A2DP).
    var isHighQualityOutput: Bool { name.containsASCII("a2dp", ignoringCase: true) && !isHandsFree }
}
