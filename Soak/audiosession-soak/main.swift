// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import AudioSessionSoak
import AudioTestHarness
import CommandLineSupport
import Foundation

// `make soak`: the reliability runs of DESIGN §4 on every server stack, each against its own private
// server and bridge, printed as a table (runs, failures, figures). Exits 1 when any run failed.
//
//   audiosession-soak [--cycles-scale F] [--only R1|R2|R3|R4|R5|R6|R7] [--stack pulseaudio|pipewire|pipewire-1.4|pipewire-1.6]

extension SoundServerKind: ExpressibleByArgument {}

/// The names of the runs, in their order.
enum SoakRunName: String, CaseIterable, ExpressibleByArgument { case R1, R2, R3, R4, R5, R6, R7 }

struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiosession-soak",
        abstract: "The reliability runs on every server stack, with their figures (make soak).")
    @Option(help: "Multiplies every run's number of cycles (0.1 for a tenth).") var cyclesScale: Double = 1
    @Option(help: "One run only.") var only: SoakRunName?
    @Option(help: "One server stack only.") var stack: SoundServerKind?

    func validate() throws {
        guard cyclesScale > 0, cyclesScale.isFinite else { throw ValidationError("--cycles-scale must be above 0") }
    }

    func run() throws {
        func cycles(_ full: Int) -> Int { max(1, Int((Double(full) * cyclesScale).rounded())) }
        let runs: [(SoakRunName, (SoundServerKind) throws -> SoakResult)] = [
            (.R1, { try SoakRuns.kills($0, cycles: cycles(200)) }),
            (.R2, { try SoakRuns.corkRace($0, cycles: cycles(1000)) }),
            (.R3, { try SoakRuns.serverRestarts($0, cycles: cycles(50)) }),
            (.R4, { try SoakRuns.malformedInput($0, calls: cycles(100_000)) }),
            (.R5, { try SoakRuns.otherPeoplesSessions($0, cycles: cycles(50)) }),
            (.R6, { try SoakRuns.policyEdits($0, cycles: cycles(100)) }),
            (.R7, { try SoakRuns.churn($0, cycles: cycles(1000)) }),
        ]
        let stacks = stack.map { [$0] } ?? SoundServerKind.allCases
        print("audiosession soak: \(stacks.map(\.rawValue).joined(separator: ", ")) (this takes a while)\n")
        var results: [SoakResult] = []
        for (name, run) in runs where only == nil || only == name {
            for stack in stacks {
                let started = ContinuousClock.now
                do {
                    results.append(try run(stack))
                } catch {
                    results.append(SoakResult(run: name.rawValue, stack: stack, cycles: 0, failures: ["the run stopped: \(error)"]))
                }
                print("\(name) on \(stack): \(results.last!.failures.count) failures in \(ContinuousClock.now - started)")
            }
        }
        print("\n" + SoakResult.table(results))
        if results.contains(where: { !$0.failures.isEmpty || !$0.budgetMisses.isEmpty }) { throw ExitCode.failure }
    }
}

SoakCommand.runWithExitStatuses()
