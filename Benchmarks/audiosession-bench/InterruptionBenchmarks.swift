// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioTestHarness
import Foundation

/// One silencer's figures over a run's calls (``CallRig/Round``).
struct RigFigures {
    var firstChange = Samples()
    var muted = Samples()
    var firstSeen = Samples()
}

extension Benchmarks {
    /// The pause after each round, in seconds, once every rig has settled (``settled``).
    static let gapBetweenRounds = 0.05

    /// How long every rig's followers (``CallRig/followers``) must have used no CPU before the next
    /// round: longer than the bridge's quiet before it decides ahead (20 ms), so that its deciding
    /// counts as the round's.
    static let settled = Duration.milliseconds(30)

    /// The shipped policies' interruption fade.
    static let interruptionFade = Duration.milliseconds(30)

    /// From a phone-role stream's connection until the music is audibly silenced (a fade's first step
    /// or the mute) and until it is muted, for each count of music streams: the bridge with the shipped
    /// policies and with fades off, against a process of its own that mutes the streams when it sees
    /// the call (what any silencer outside the server and the app pays: the floor of DESIGN §3), side
    /// by side with two references: the app that starts the call muting the music itself (it is awake
    /// when the call's stream comes), and PulseAudio's module-role-cork, which only code inside the
    /// server reaches (all servers run at once and their rounds alternate, so whatever else the machine
    /// does weighs on each alike).
    static func interruptions(musicStreams counts: [Int], rounds: Int) throws -> [ReportLine] {
        try counts.flatMap { count -> [ReportLine] in
            let silencers: [Silencer] = [.roleCork, .bridge(fades: true), .bridge(fades: false), .muterProcess, .muterProcess,
                                         .clientMutes, .faderProcess]
            let results = try alternate(silencers, on: .pulseaudio, musicStreams: count, rounds: rounds)
            let (cork, shipped, noFade, caller, fader) = (results[0], results[1], results[2], results[5], results[6])
            let streams = musicStreams(count)
            // The floor for anything outside the server (DESIGN §3): a process muting the streams itself.
            let floor = floorOfTwoMuters(results[3], results[4])
            return [
                spread(results[3], results[4], "phone → \(streams)"),
                against(floor, "phone → \(streams) audibly silenced (first step), shipped policies, p50",
                        shipped.firstChange, withP95: true, budget: "≤ 1.1×"),
                against(floor, "phone → \(streams) audibly silenced (first step) by a process of its own fading, p50",
                        fader.firstChange, budget: "(reference)"),
                fullyMuted(shipped, ", shipped policies", fades: count <= EngineSettings().maxFadingStreams, streams: streams,
                           floor: floor, budget: "≤ 1.1×"),
                fullyMuted(fader, " by a process of its own fading", fades: true, streams: streams, floor: floor,
                           budget: "(reference)"),
                against(floor, "phone → \(streams) muted, fades off, p50",
                        noFade.muted, withP95: true, budget: "≤ 1.1×"),
                against(floor, "phone → \(streams) muted by the app that starts the call, p50", caller.muted,
                        budget: "(reference)"),
                against(floor, "phone → \(streams) corked by module-role-cork (inside the server), p50", cork.muted,
                        budget: "(reference)"),
            ] + seenFromOutside("", streams, shipped: shipped, noFade: noFade, fader: fader, floor: floorOfTwoMuters(results[3], results[4], \.firstSeen))
                + againstTheFader("", count, shipped: shipped, fader: fader)
        }
    }

    /// The floor: two processes of their own muting the music, each on a server of its own, their calls
    /// taken together, so that neither server's luck in a run decides the floor alone; by default when
    /// they had it muted, with `\.firstSeen` when the caller's own view showed it (from outside).
    private static func floorOfTwoMuters(_ one: RigFigures, _ other: RigFigures,
                                         _ figure: KeyPath<RigFigures, Samples> = \.muted) -> Samples {
        one[keyPath: figure] + other[keyPath: figure]
    }

    /// When a silencer had the music fully muted, against the floor plus the 30 ms fade where it fades.
    /// With more streams than the bridge fades (``EngineSettings/maxFadingStreams``) the shipped policies
    /// mute at once, so their floor is then the processes' muting alone (adding the fade read 0.36× at a
    /// hundred). The process fading as they do always fades; like the bridge, it sets each stream's
    /// volume back under its mute, and the stamp counts that volume's announcement.
    private static func fullyMuted(_ figures: RigFigures, _ silencer: String, fades: Bool, streams: String,
                                   floor: Samples, budget: String) -> ReportLine {
        let fadeLength = fades ? interruptionFade : .zero
        let fade = fades ? "30 ms fade" : "no fade past \(EngineSettings().maxFadingStreams) streams"
        return ReportLine(name: "phone → \(streams) fully muted\(silencer) (\(fade)), p50",
                          figure: figures.muted.median.formatted,
                          baseline: (floor.median + fadeLength).formatted + (fades ? " two processes muting + fade" : " two processes muting"),
                          ratio: figures.muted.medianRatio(over: floor, plus: fadeLength), budget: budget)
    }

    /// The measure from outside (DESIGN §3): from the call's stream until the caller's own view shows
    /// every music stream muted or its fade begun, the bridge with the shipped policies and with fades
    /// off, against the same view of a process of its own muting them; and, for reference, that view of
    /// the process fading them as the shipped policies do (a volume is not a mute to the server).
    private static func seenFromOutside(_ stack: String, _ streams: String, shipped: RigFigures, noFade: RigFigures,
                                        fader: RigFigures, floor: Samples) -> [ReportLine] {
        [
            against(floor, "\(stack)phone → \(streams) silenced or fading, seen by the caller (from outside), shipped policies, p50",
                    shipped.firstSeen, withP95: true, budget: "≤ 1.1×"),
            against(floor, "\(stack)phone → \(streams) fading, seen by the caller (from outside), by a process of its own fading, p50",
                    fader.firstSeen, budget: "(reference)"),
            against(floor, "\(stack)phone → \(streams) silenced, seen by the caller (from outside), fades off, p50",
                    noFade.firstSeen, withP95: true, budget: "≤ 1.1×"),
        ]
    }

    /// The fade's first step of the shipped policies against that of a process of its own that fades as
    /// they do: the bridge's own share of the fade, apart from what the server pays to carry out a
    /// volume rather than a mute (the process fading pays that too). None past
    /// ``EngineSettings/maxFadingStreams`` streams, where the shipped policies mute at once.
    private static func againstTheFader(_ stack: String, _ count: Int, shipped: RigFigures,
                                        fader: RigFigures) -> [ReportLine] {
        guard count <= EngineSettings().maxFadingStreams else { return [] }
        let streams = musicStreams(count)
        return [ReportLine(name: "\(stack)phone → \(streams) audibly silenced (first step), shipped policies, against a process of its own fading, p50",
                   figure: shipped.firstChange.median.formatted,
                   baseline: fader.firstChange.median.formatted + " a process fading",
                   ratio: shipped.firstChange.medianRatio(over: fader.firstChange), budget: "(reference)")]
    }

    /// The second muting process against the first: how far two rigs that are the same read apart in the
    /// run (what a ratio in the table may owe to the rig it was measured on, not to its silencer).
    private static func spread(_ one: RigFigures, _ other: RigFigures,
                               _ what: String) -> ReportLine {
        ReportLine(name: "\(what) muted by a second process of its own muting, against the first (the same rig twice), p50",
                   figure: other.muted.median.formatted, baseline: one.muted.median.formatted + " the first",
                   ratio: other.muted.medianRatio(over: one.muted), budget: "(spread)")
    }

    /// A figure against the floor, a process of its own muting the music.
    private static func against(_ floor: Samples, _ name: String, _ figure: Samples, withP95: Bool = false,
                                budget: String) -> ReportLine {
        ReportLine(name: name, figure: figure.median.formatted + (withP95 ? " (p95 \(figure.percentile(0.95).formatted))" : ""),
                   baseline: floor.median.formatted + " two processes muting", ratio: figure.medianRatio(over: floor), budget: budget)
    }

    /// The same on PipeWire 1.6, 1.4 and 0.3 (pipewire-pulse has no module-role-cork): the bridge against a
    /// process of its own that mutes the music streams when it sees the call, and on 1.6 and 1.4 against
    /// WirePlumber 0.5's own role-based policy (its example role sinks; the bridge's rigs run without
    /// them). WirePlumber 0.4 has no such policy.
    static func interruptionsOnPipeWire(_ kind: SoundServerKind, musicStreams counts: [Int], rounds: Int) throws -> [ReportLine] {
        let withRoles = kind.hasWirePlumber05
        let stack = switch kind {
        case .pipewire16: "PipeWire 1.6"
        case .pipewire14: "PipeWire 1.4"
        default: "PipeWire 0.3"
        }
        return try counts.flatMap { count -> [ReportLine] in
            var silencers: [Silencer] = [.bridge(fades: true), .bridge(fades: false), .muterProcess, .muterProcess, .faderProcess]
            if withRoles { silencers.append(.wirePlumberRoles) }
            let results = try alternate(silencers, on: kind, musicStreams: count, rounds: rounds)
            let (shipped, noFade, fader) = (results[0], results[1], results[4])
            let streams = musicStreams(count)
            let baseline = floorOfTwoMuters(results[2], results[3])
            var lines = [
                spread(results[2], results[3], "\(stack): phone → \(streams)"),
                against(baseline, "\(stack): phone → \(streams) audibly silenced, shipped policies, p50",
                        shipped.firstChange, budget: "≤ 1.1×"),
                against(baseline, "\(stack): phone → \(streams) audibly silenced (first step) by a process of its own fading, p50",
                        fader.firstChange, budget: "(reference)"),
                against(baseline, "\(stack): phone → \(streams) muted, fades off, p50", noFade.muted, budget: "≤ 1.1×"),
            ] + seenFromOutside("\(stack): ", streams, shipped: shipped, noFade: noFade, fader: fader, floor: floorOfTwoMuters(results[2], results[3], \.firstSeen))
                + againstTheFader("\(stack): ", count, shipped: shipped, fader: fader)
            guard withRoles else { return lines }
            let wirePlumber = results[5]
            lines += [
                against(baseline, "\(stack): Communication → \(streams) unlinked by WirePlumber 0.5's role policy, p50",
                        wirePlumber.muted, budget: "(reference)"),
                ReportLine(name: "\(stack): phone → \(streams) muted by the bridge (fades off) against WirePlumber's role policy, p50",
                           figure: noFade.muted.median.formatted, baseline: wirePlumber.muted.median.formatted + " WirePlumber 0.5",
                           ratio: noFade.muted.medianRatio(over: wirePlumber.muted), budget: "(reference)"),
            ]
            return lines
        }
    }

    /// A round, taken again (and said so) when the server never started the call's stream.
    private static func retakenIfTheCallNeverPlayed(_ round: () throws -> CallRig.Round) throws -> CallRig.Round {
        for _ in 0..<CallNeverPlayed.retakes {
            do { return try round() } catch let failed as CallNeverPlayed {
                FileHandle.standardError.write(Data("a round taken again: \(failed)\n".utf8))
            }
        }
        return try round()
    }

    /// The first-change and mute times of each silencer, over `rounds` calls taken in turn on rigs that
    /// all run at once, in a new order every round (``RoundOrder``).
    ///
    /// The silencers take turns on the rigs: the calls are split into as many blocks as there are rigs,
    /// and in each block every silencer is attached to another rig (the rotation of a Latin square), so
    /// that each has been measured on every rig about as often and what a rig owes to its server's
    /// instance weighs on every silencer alike. The first round of each block warms up. A silencer that
    /// cannot move (``Silencer/needsRoleSinks``) keeps a rig of its own and takes its rounds after
    /// the others'.
    private static func alternate(_ silencers: [Silencer], on kind: SoundServerKind, musicStreams count: Int,
                                  rounds: Int) throws -> [RigFigures] {
        var rigs: [CallRig] = []
        defer { rigs.forEach { $0.stop() } }
        let moving = silencers.indices.filter { !silencers[$0].needsRoleSinks }
        let staying = silencers.indices.filter { silencers[$0].needsRoleSinks }
        for _ in moving { rigs.append(try CallRig(on: kind, musicStreams: count)) }
        var rigOf: [Int: CallRig] = [:]
        for index in staying {
            let rig = try CallRig(on: kind, musicStreams: count, rolePolicy: true)
            rigs.append(rig)
            try rig.attach(silencers[index])
            rigOf[index] = rig
        }
        var results = Array(repeating: RigFigures(), count: silencers.count)
        var orders = RoundOrder()
        let blocks = min(moving.count, rounds)
        for block in 0..<blocks {
            for (place, index) in moving.enumerated() {
                rigOf[index] = rigs[(place + block) % moving.count]
                try rigOf[index]!.attach(silencers[index])
            }
            defer { moving.forEach { rigOf[$0]!.detach() } }
            let calls = rounds / blocks + (block < rounds % blocks ? 1 : 0)
            try measure(moving, calls: calls, on: rigOf, settling: rigs, silencers, count, &orders, into: &results)
        }
        for index in staying {
            try measure([index], calls: rounds, on: rigOf, settling: rigs, silencers, count, &orders, into: &results)
        }
        return results
    }

    /// `calls` rounds of each of `group`'s silencers on its rig (`rigOf`), after one that warms up, in a
    /// new order every round; after each, the followers of every rig in `settling` settle (what a round
    /// leaves running, WirePlumber relinking the music after its call or a bridge deciding ahead, must
    /// not weigh on the next rig's).
    private static func measure(_ group: [Int], calls: Int, on rigOf: [Int: CallRig], settling rigs: [CallRig],
                                _ silencers: [Silencer], _ count: Int, _ orders: inout RoundOrder,
                                into results: inout [RigFigures]) throws {
        let followers = rigs.flatMap(\.followers)
        for round in 0...calls {
            for index in orders.order(group) {
                let rig = rigOf[index]!
                let measured: CallRig.Round
                do { measured = try retakenIfTheCallNeverPlayed { try rig.round() } } catch {
                    throw BenchError("\(silencers[index]), \(count) streams: \(error)\n\(rig.diagnosis)")
                }
                ProcessFigures.waitUntilQuiet(followers, Self.settled, looking: .milliseconds(5), timeout: .seconds(5))
                Thread.sleep(forTimeInterval: Self.gapBetweenRounds)
                guard round > 0 else { continue }
                results[index].firstChange.append(measured.firstChange)
                results[index].muted.append(measured.muted)
                results[index].firstSeen.append(measured.firstSeen)
            }
        }
    }
}
