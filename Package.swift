// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

let package = Package(
    name: "audiosession",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "audiosessiond", targets: ["audiosessiond"]),
        .executable(name: "audiosessionctl", targets: ["audiosessionctl"]),
        .executable(name: "audiosession-indicator", targets: ["audiosession-indicator"]),
        .library(name: "AudioSessionKit", targets: ["AudioSessionKit"]),
        .library(name: "AudioSessionModel", targets: ["AudioSessionModel"]),
        .library(name: "AudioSessionPulse", targets: ["AudioSessionPulse"]),
        .library(name: "MediaPlayerKit", targets: ["MediaPlayerKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
        // `make docs`: the DocC site of AudioSessionKit and MediaPlayerKit.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C libraries, each with a prefixed header-only shim for macros. libpulse's headers are in the
        // compiler's default path and its module map links it; its pkg-config flags (-D_REENTRANT,
        // -pthread: nothing on today's glibc) are ones SwiftPM refuses with a warning on every build.
        // libdbus's headers are in a folder of their own, so it goes through pkg-config.
        .systemLibrary(name: "CPulse"),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // glibc's <malloc.h>, which the Glibc module leaves out (the indicator's malloc_trim).
        .systemLibrary(name: "CMalloc"),

        // The vocabulary and the pure engine: no C, no logging, no I/O.
        .target(name: "AudioSessionModel"),
        .target(name: "AudioPolicy", dependencies: ["AudioSessionModel"]),

        // Typed wrappers over the C libraries.
        .target(name: "PulseAudioClient", dependencies: ["CPulse"]),
        .target(name: "DBusKit", dependencies: ["CDBus"]),

        // The bus contract, the shell and the app-facing library.
        .target(name: "AudioSessionIPC", dependencies: ["AudioSessionModel", "DBusKit"]),
        .target(
            name: "AudioSessionDaemon",
            dependencies: [
                "AudioSessionModel", "AudioPolicy", "PulseAudioClient", "DBusKit", "AudioSessionIPC",
            ]),
        .target(name: "AudioSessionKit", dependencies: ["AudioSessionModel", "AudioSessionIPC", "DBusKit"]),
        // Remote commands and Now Playing, published as an MPRIS player.
        .target(name: "MediaPlayerKit", dependencies: ["DBusKit", "AudioSessionKit"]),
        // For apps that play through libpulse themselves: buffer plans and automatic cork/uncork.
        .target(name: "AudioSessionPulse", dependencies: ["AudioSessionKit", "PulseAudioClient", "CPulse"]),

        // Example apps that make real sound.
        .executableTarget(name: "music-player", dependencies: ["AudioSessionKit", "AudioSessionPulse", "PulseAudioClient"],
                          path: "Examples/music-player"),
        .executableTarget(name: "podcast-player",
                          dependencies: ["AudioSessionKit", "AudioSessionPulse", "MediaPlayerKit"],
                          path: "Examples/podcast-player"),
        .executableTarget(name: "voip-call", dependencies: ["AudioSessionKit", "AudioSessionPulse", "PulseAudioClient"],
                          path: "Examples/voip-call"),

        // Thin executables, and what their command lines share.
        .target(name: "EventTimeline"),
        .target(name: "TopView"),
        // The desktop indicator: what it shows for a state of the bridge (pure), and the program.
        .target(name: "IndicatorModel"),
        .executableTarget(name: "audiosession-indicator",
                          dependencies: ["IndicatorModel", "DBusKit", "AudioSessionIPC", "CommandLineSupport", "CMalloc",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(name: "CommandLineSupport", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(
            name: "audiosessiond",
            dependencies: [
                "AudioSessionDaemon", "AudioSessionIPC", "DBusKit", "CommandLineSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "audiosessionctl",
            dependencies: [
                "EventTimeline", "TopView",
                "AudioSessionKit", "AudioSessionModel", "AudioPolicy", "AudioSessionIPC", "AudioSessionDaemon", "DBusKit",
                "CommandLineSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // A stand-in desktop notification server for the record-permission tests.
        .executableTarget(name: "notification-test-server", dependencies: ["DBusKit"],
                          path: "Tests/Tools/notification-test-server"),
        // Seed 004's route-change handler as written (only `AV` dropped), in an app of its own.
        .executableTarget(name: "seed-route-handler", dependencies: ["AudioSessionKit"], path: "Tests/Tools/seed-route-handler"),
        // A small MPRIS player for the tests.
        .executableTarget(name: "mpris-test-player", dependencies: ["DBusKit"], path: "Tests/Tools/mpris-test-player"),

        // Private real servers for integration tests and benchmarks.
        .target(name: "AudioTestHarness", dependencies: ["DBusKit"], path: "Tests/Harness"),

        // `make bench`: the performance budget, measured against baselines in the same run.
        // The bench's count of allocations: the C allocator's entry points, defined in the bench itself.
        .target(name: "CAllocationCount", path: "Benchmarks/CAllocationCount"),
        .executableTarget(name: "audiosession-bench", dependencies: ["AudioTestHarness", "PulseAudioClient", "CPulse", "DBusKit",
                                                                     "CAllocationCount",
                                                                     "AudioPolicy", "AudioSessionDaemon", "AudioSessionModel",
                                                                     "CommandLineSupport",
                                                                     .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Benchmarks/audiosession-bench"),

        // `make soak`: the reliability runs, and their short versions in `make test`.
        .target(name: "AudioSessionSoak", dependencies: ["AudioTestHarness", "DBusKit"], path: "Soak/AudioSessionSoak"),
        .executableTarget(name: "audiosession-soak", dependencies: ["AudioSessionSoak", "AudioTestHarness", "CommandLineSupport",
                                                                    .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Soak/audiosession-soak"),

        // The trait of the server suites: each case on a thread of its own (Swift's pool has one per core),
        // and failed when a server process it started ended on its own.
        .target(name: "ServerTestTraits", dependencies: ["AudioTestHarness"], path: "Tests/ServerTestTraits"),
        .testTarget(name: "AudioSessionModelTests", dependencies: ["AudioSessionModel"]),
        .testTarget(name: "DocumentationTests"),
        .testTarget(name: "EventTimelineTests", dependencies: ["EventTimeline"]),
        .testTarget(name: "TopViewTests", dependencies: ["TopView"]),
        .testTarget(name: "IndicatorModelTests", dependencies: ["IndicatorModel"]),
        .testTarget(name: "SoakTests", dependencies: ["AudioSessionSoak", "AudioTestHarness", "ServerTestTraits"]),
        .testTarget(name: "AudioSessionKitTests", dependencies: ["AudioSessionKit", "AudioSessionPulse", "AudioTestHarness", "ServerTestTraits"]),
        .testTarget(name: "MediaPlayerKitTests", dependencies: ["MediaPlayerKit", "AudioTestHarness", "ServerTestTraits"]),
        .testTarget(name: "AudioSessionIPCTests", dependencies: ["AudioSessionIPC", "AudioSessionModel", "DBusKit"]),
        .testTarget(
            name: "BridgeEndToEndTests",
            dependencies: ["AudioTestHarness", "DBusKit", "ServerTestTraits"],
            exclude: ["Clients"]),
        .testTarget(
            name: "ServerIntegrationTests",
            dependencies: ["AudioSessionDaemon", "AudioPolicy", "AudioSessionModel", "PulseAudioClient", "AudioTestHarness",
                           "ServerTestTraits"]),
        .testTarget(
            name: "AudioPolicyTests",
            dependencies: [
                "AudioPolicy", "AudioSessionModel",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["RULES.md"],
            resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
