import Foundation

// `make bench`: the performance budget of DESIGN.md §3, measured against private PulseAudio servers
// that the benchmark starts itself, each figure next to a baseline measured in the same run.

print("audiosession benchmarks (PulseAudio, release build; this takes a few minutes)\n")
// `--quick`: fewer rounds and a smaller scale, to check that the benchmarks run.
let quick = CommandLine.arguments.contains("--quick")
var lines: [ReportLine] = []
do {
    lines += try Benchmarks.roleCork(musicStreams: [1, 10], rounds: quick ? 5 : 30)
    lines += try Benchmarks.routeChangeAndCalls(rounds: quick ? 5 : 30, calls: quick ? 50 : 500)
    lines += try Benchmarks.scale(streams: quick ? 200 : 2000, sessions: quick ? 100 : 1000, events: quick ? 50 : 300)
} catch {
    ReportLine.print(lines)
    print("\nbenchmark failed: \(error)")
    exit(1)
}
ReportLine.print(lines)
