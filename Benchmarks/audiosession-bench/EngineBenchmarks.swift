// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import AudioSessionModel
import AudioTestHarness
import Foundation

extension Benchmarks {
    /// The engine's own share of an interruption, in this process: the CPU time of one
    /// `PolicyEngine.handle` for a phone-role stream appearing next to `count` music streams of one app
    /// (the shipped policies), against a step that changes nothing (a stream's volume report as it was);
    /// and deciding ahead: looking up the call's first moves (what stands before its first command
    /// now), and deciding them after a step (off that path), against the step; and the longest loop
    /// turn the bridge spends deciding them, a trigger kind per turn, against the whole table at once.
    static func engineStep(musicStreams counts: [Int], rounds: Int) throws -> [ReportLine] {
        let loaded = PolicyLoader(base: [BridgeDaemon.policiesFolder]).load()
        guard let policies = loaded.set else { throw BenchError("the shipped policies did not load: \(loaded.errors)") }
        return counts.flatMap { count in
            var engine = PolicyEngine(policies: policies)
            let speaker = DeviceID(.output, 0)
            var time = EngineTime.milliseconds(1)
            func step(_ event: PolicyEvent) -> [PolicyAction] {
                time = time + .milliseconds(1)
                return engine.handle(event, at: time)
            }
            _ = step(.deviceAppeared(DeviceInfo(id: speaker, name: "speaker", description: "Speaker",
                                                properties: ["device.form_factor": "internal", "device.bus": "pci"])))
            _ = step(.serverInfo(name: "bench", version: "1", defaultOutput: "speaker", defaultInput: nil))
            let music = (0..<count).map { number in
                StreamInfo(id: StreamID(.output, UInt32(number)), app: AppIdentity(name: "bench-music"), role: "music",
                           processChain: [4000, 1], device: speaker, restoreKey: "sink-input-by-media-role:music")
            }
            for info in music { _ = step(.streamAppeared(info)) }
            _ = step(.tick)
            let call = StreamInfo(id: StreamID(.output, 90_000), app: AppIdentity(name: "bench-call"), role: "phone",
                                  processChain: [5000, 1], device: speaker)
            var calls = Samples(), idles = Samples(), lookups = Samples(), decisions = Samples(), turns = Samples()
            var decided = engine
            decided.prepareFirstMoves()
            for _ in 0..<rounds {
                let lookupStart = ContinuousClock.now
                let moves = decided.firstMoves(for: .streamAppeared(call))
                lookups.append(ContinuousClock.now - lookupStart)
                precondition(moves?.isEmpty == false, "the call's first moves are decided ahead")
                var deciding = engine
                let decideStart = ContinuousClock.now
                deciding.prepareFirstMoves()
                decisions.append(ContinuousClock.now - decideStart)
                var turning = engine
                var longestTurn = Duration.zero
                var decidedWhole = false
                while !decidedWhole {
                    let turnStart = ContinuousClock.now
                    decidedWhole = turning.prepareNextFirstMoves()
                    longestTurn = max(longestTurn, ContinuousClock.now - turnStart)
                }
                turns.append(longestTurn)
                var copy = engine
                let start = ContinuousClock.now
                _ = copy.handle(.streamAppeared(call), at: time + .milliseconds(1))
                calls.append(ContinuousClock.now - start)
                var idle = engine
                let idleStart = ContinuousClock.now
                _ = idle.handle(.streamChanged(music[0]), at: time + .milliseconds(1))
                idles.append(ContinuousClock.now - idleStart)
            }
            let streams = musicStreams(count)
            return [
                ReportLine(name: "engine step: phone stream next to \(streams), p50",
                           figure: calls.median.formatted, baseline: idles.median.formatted + " a step that changes nothing",
                           ratio: calls.median / idles.median, budget: "–"),
                ReportLine(name: "first moves looked up for that phone stream, p50",
                           figure: lookups.median.formatted, baseline: calls.median.formatted + " the engine step",
                           ratio: lookups.median / calls.median, budget: "–"),
                ReportLine(name: "first moves decided after a step, next to \(streams), p50",
                           figure: decisions.median.formatted, baseline: calls.median.formatted + " the engine step",
                           ratio: decisions.median / calls.median, budget: "–"),
                ReportLine(name: "first moves decided a trigger kind per loop turn, the longest turn, next to \(streams), p50",
                           figure: turns.median.formatted, baseline: decisions.median.formatted + " the whole table at once",
                           ratio: turns.median / decisions.median, budget: "–"),
            ]
        }
    }
}
