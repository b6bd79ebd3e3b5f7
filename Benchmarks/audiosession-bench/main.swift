// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import CommandLineSupport
import Foundation

// `make bench`: the performance budget of DESIGN.md §3, measured against private PulseAudio servers
// that the benchmark starts itself, each figure next to a baseline measured in the same run.
//
//   audiosession-bench [--quick] [--only interruptions|pipewire|engine|allocations|sessions|calls|scale|sound] [--streams N] [--calls N]
//
// `--quick` takes fewer rounds and a smaller scale, to check that the benchmarks run.

/// The parts of the benchmark, each runnable alone.
enum BenchmarkPart: String, CaseIterable, ExpressibleByArgument { case interruptions, pipewire, engine, allocations, sessions, calls, scale, sound }

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosession-bench",
        abstract: "The performance budget, each figure beside a baseline measured in the same run (make bench).")
    @Flag(help: "Fewer rounds and a smaller scale, to check that the benchmarks run.") var quick = false
    @Option(help: "One part only.") var only: BenchmarkPart?
    @Option(help: "One count of music streams for the interruption benchmark.") var streams: Int?
    @Option(help: "Calls measured per silencer in the interruption benchmarks (default 100, 5 with --quick).") var calls: Int?
    @Option(help: .hidden) var muteMusicDuringCallsOn: String?
    @Option(help: .hidden) var fadeMusicDuringCallsOn: String?

    func validate() throws {
        if let streams, streams < 1 { throw ValidationError("--streams must be at least 1") }
        if let calls, calls < 1 { throw ValidationError("--calls must be at least 1") }
    }

    func run() throws {
        if let address = muteMusicDuringCallsOn { try StreamProbe.runMuter(address: address) }
        if let address = fadeMusicDuringCallsOn { try StreamProbe.runMuter(address: address, fading: true) }
        func wanted(_ part: BenchmarkPart) -> Bool { only == nil || only == part }
        print("audiosession benchmarks (PulseAudio 16.1, and PipeWire 1.6, 1.4 and 0.3 where named; about an hour, a few minutes with --quick)\n")
        var lines: [ReportLine] = []
        let callRounds = calls ?? (quick ? 5 : 100)
        let musicCounts = streams.map { [$0] } ?? (quick ? [1, 10] : [1, 10, 100])
        do {
            if wanted(.interruptions) {
                lines += try Benchmarks.interruptions(musicStreams: musicCounts, rounds: callRounds)
            }
            if wanted(.pipewire) {
                lines += try Benchmarks.interruptionsOnPipeWire(.pipewire16, musicStreams: musicCounts, rounds: callRounds)
                lines += try Benchmarks.interruptionsOnPipeWire(.pipewire14, musicStreams: musicCounts, rounds: callRounds)
                lines += try Benchmarks.interruptionsOnPipeWire(.pipewire, musicStreams: musicCounts, rounds: callRounds)
            }
            if wanted(.engine) {
                lines += try Benchmarks.engineStep(musicStreams: [1, 10, 100], rounds: quick ? 50 : 500)
                lines += try Benchmarks.journalWrite(rounds: quick ? 200 : 2000)
            }
            if wanted(.allocations) {
                lines += try Benchmarks.allocationsOnTheCallPath(musicStreams: musicCounts, rounds: quick ? 3 : 10)
            }
            if wanted(.sessions) { lines += try Benchmarks.sessionCalls(sessions: quick ? 100 : 1000, calls: quick ? 30 : 200) }
            if wanted(.calls) { lines += try Benchmarks.routeChangeAndCalls(rounds: quick ? 5 : 30, calls: quick ? 50 : 500) }
            if wanted(.sound) { lines += try Benchmarks.soundWatch(streams: 10, seconds: quick ? 2 : 10) }
            if wanted(.scale) {
                lines += try Benchmarks.scale(streams: quick ? 200 : 2000, sessions: quick ? 100 : 1000, events: quick ? 50 : 1000)
            }
        } catch {
            ReportLine.print(lines)
            print("\nbenchmark failed: \(error)")
            throw ExitCode.failure
        }
        ReportLine.print(lines)
    }
}

BenchCommand.runWithExitStatuses()
