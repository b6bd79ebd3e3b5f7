// SPDX-License-Identifier: Apache-2.0
import AudioSessionIPC
import AudioSessionModel
import DBusKit
import Foundation
import Testing

/// The bus contract: codecs, marshalling through real libdbus messages, and the installed XML.
@Suite("The bus contract")
struct ContractTests {
    /// Appends a value to a libdbus message and reads it back.
    func roundTrip(_ value: BusValue) -> BusValue? {
        BusMessage.signal(path: "/t", interface: "t.T", member: "M", [value]).arguments.first
    }

    @Test("every type the contract uses survives a libdbus message", arguments: [
        BusValue.byte(7), .bool(true), .int32(-5), .uint32(5), .int64(-9), .uint64(9), .double(0.25), .string("ü"),
        .objectPath("/io/github/audiosession/Bridge1/session/3"), .signature("a{sv}"), .strings(["a", "b"]),
        .array(element: "s", []), .vardict([("reason", .string("default")), ("options", .strings(["shouldResume"]))]),
        .structure([.array(element: "a{sv}", []), .array(element: "a{sv}", [.vardict([("uid", .string("x"))])])]),
        .variant(.int32(3)),
    ])
    func marshalling(value: BusValue) {
        #expect(roundTrip(value) == value)
        #expect(roundTrip(value)?.signature == value.signature)
    }

    @Test("a route survives encoding, a libdbus message and decoding")
    func routeCodec() throws {
        let route = RouteDescription(
            inputs: [PortDescription(portType: .microphoneBuiltIn, portName: "Mic", uid: "mic", channels: ["mono"])],
            outputs: [PortDescription(portType: .headphones, portName: "Headphones", uid: "alsa:hp",
                                      channels: ["front-left", "front-right"])])
        let encoded = Codec.encode(route)
        #expect(encoded.signature == "(aa{sv}aa{sv})")
        #expect(Codec.decodeRoute(try #require(roundTrip(encoded))) == route)
    }

    @Test("errors carry the bridge's names and come back as the same codes")
    func errors() {
        for code in ErrorCode.allCases {
            let error = AudioSessionError(code, "why").busError
            #expect(error.name == "io.github.audiosession.Error.\(code.rawValue)")
            #expect(AudioSessionError(error)?.code == code)
        }
        #expect(AudioSessionError(BusError.invalidArgs("x")) == nil)
    }

    @Test("the introspection XML in interfaces/ is exactly what the bridge serves", arguments: [
        ("io.github.audiosession.Bridge1.xml", Introspection.manager),
        ("io.github.audiosession.Session1.xml", Introspection.session),
    ])
    func installedXML(row: (String, String)) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("interfaces/\(row.0)"), encoding: .utf8)
        #expect(file == Introspection.document(row.1))
        #expect(file.contains("<interface name=\"\(row.0.dropLast(4))\">"))
    }

    @Test("session paths and numbers")
    func paths() {
        #expect(BusContract.sessionPath(7) == "/io/github/audiosession/Bridge1/session/7")
        #expect(BusContract.sessionNumber("/io/github/audiosession/Bridge1/session/7") == 7)
        #expect(BusContract.sessionNumber("/elsewhere/7") == nil)
    }
}
