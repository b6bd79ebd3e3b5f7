// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import DBusKit

/// Converts the model's values to and from their D-Bus form.
public enum Codec {
    /// A port: `a{sv}` with `portType`, `portName`, `uid`, `channels`.
    public static func encode(_ port: PortDescription) -> BusValue {
        .vardict([
            ("portType", .string(port.portType.rawValue)), ("portName", .string(port.portName)),
            ("uid", .string(port.uid)), ("channels", .strings(port.channels)),
        ])
    }

    public static func decodePort(_ value: BusValue) -> PortDescription? {
        guard let fields = value.stringDictionary, let type = fields["portType"]?.stringValue.flatMap(PortType.init),
            let uid = fields["uid"]?.stringValue
        else { return nil }
        return PortDescription(portType: type, portName: fields["portName"]?.stringValue ?? "", uid: uid,
                               channels: fields["channels"]?.stringArray ?? [])
    }

    /// `aa{sv}`.
    public static func encode(_ ports: [PortDescription]) -> BusValue {
        .array(element: "a{sv}", ports.map(encode))
    }

    /// A route: `(aa{sv}aa{sv})`, inputs then outputs.
    public static func encode(_ route: RouteDescription) -> BusValue {
        .structure([encode(route.inputs), encode(route.outputs)])
    }

    public static func decodeRoute(_ value: BusValue) -> RouteDescription? {
        guard let fields = value.structFields, fields.count == 2 else { return nil }
        return RouteDescription(inputs: fields[0].arrayItems?.compactMap(decodePort) ?? [],
                                outputs: fields[1].arrayItems?.compactMap(decodePort) ?? [])
    }

    /// The info of an `Interruption` signal: `reason`, `options`, and `interrupter` when known.
    public static func interruptionInfo(reason: InterruptionReason, options: InterruptionOptions,
                                        interrupter: String?) -> BusValue {
        var entries: [(String, BusValue)] = [("reason", .string(reason.rawValue)), ("options", .strings(options.names))]
        if let interrupter { entries.append(("interrupter", .string(interrupter))) }
        return .vardict(entries)
    }
}
