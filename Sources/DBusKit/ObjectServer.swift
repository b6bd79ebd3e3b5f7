// SPDX-License-Identifier: Apache-2.0
/// An incoming method call, with who sent it.
public struct MethodCall: @unchecked Sendable {
    public let message: BusMessage
    /// The caller's unique name.
    public var sender: String { message.sender ?? "" }
    /// The object path the call was made at.
    public var path: String { message.path ?? "" }
    public var arguments: [BusValue]
}

/// What a method handler answers.
public enum MethodResult {
    case reply([BusValue])
    case error(BusError)
    /// The handler will answer later with ``ObjectServer/reply(to:_:)``.
    case later
}

/// A method of an exported interface: its input signature and its handler.
public struct ExportedMethod {
    public var inputSignature: String
    public var handler: (MethodCall) -> MethodResult
    public init(_ inputSignature: String, _ handler: @escaping (MethodCall) -> MethodResult) {
        self.inputSignature = inputSignature
        self.handler = handler
    }
}

/// A property of an exported interface.
public struct ExportedProperty {
    public var signature: String
    /// The value at an object path: one property can serve many objects.
    public var get: (_ path: String) -> BusValue
    /// Sets the value for a caller (its unique name); nil for a read-only property.
    public var set: ((BusValue, String) -> BusError?)?

    /// A property whose value is the same whatever the object.
    public init(_ signature: String, get: @escaping () -> BusValue, set: ((BusValue, String) -> BusError?)? = nil) {
        self.init(signature, getAt: { _ in get() }, set: set)
    }

    /// A property whose value depends on the object path it is read at.
    public init(_ signature: String, getAt: @escaping (_ path: String) -> BusValue,
                set: ((BusValue, String) -> BusError?)? = nil) {
        self.signature = signature
        self.get = getAt
        self.set = set
    }
}

/// An interface an object exports: methods, properties, and its `<interface>` introspection XML.
public struct ExportedInterface {
    public var name: String
    public var methods: [String: ExportedMethod]
    public var properties: [String: ExportedProperty]
    public var introspectionXML: String
    public init(name: String, methods: [String: ExportedMethod], properties: [String: ExportedProperty],
                introspectionXML: String) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.introspectionXML = introspectionXML
    }
}

/// Serves objects on a connection: routes method calls by path, interface and member (checking the
/// signature: a wrong one is `InvalidArgs`), answers `Introspectable` and `Properties` (Get, GetAll,
/// Set) for every object, and emits signals and `PropertiesChanged`.
public final class ObjectServer {
    public let connection: BusConnection
    private var objects: [String: [ExportedInterface]] = [:]
    /// Called for messages that are not method calls to an exported object (signals, …).
    public var onOtherMessage: ((BusMessage) -> Bool)?
    /// Runs before each method call to an exported object is served, with the caller's unique name:
    /// it calls `proceed` when the call may be served, at once or after looking the caller up. It
    /// must keep one caller's calls in the order they came.
    public var admit: ((_ sender: String, _ proceed: @escaping () -> Void) -> Void)?
    /// The error for a caller that may not reach the object at `path`, nil when it may. Such a
    /// caller gets the error for every call there, and introspection leaves the path out for it.
    public var accessError: ((_ path: String, _ sender: String) -> BusError?)?

    public static let introspectableInterface = "org.freedesktop.DBus.Introspectable"
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"

    public init(connection: BusConnection) {
        self.connection = connection
        connection.onMessage = { [unowned self] message in self.handle(message) }
    }

    /// Serves `interfaces` at `path` (replacing what was there).
    public func export(path: String, interfaces: [ExportedInterface]) { objects[path] = interfaces }

    /// Stops serving `path`.
    public func unexport(path: String) { objects[path] = nil }

    /// Emits a signal from `path`: a broadcast, or a unicast to `destination`.
    public func emitSignal(path: String, interface: String, member: String, _ arguments: [BusValue],
                           destination: String? = nil) {
        connection.send(.signal(path: path, interface: interface, member: member, arguments, destination: destination))
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `interface` at `path`.
    public func emitPropertiesChanged(path: String, interface: String, changed: [(String, BusValue)]) {
        guard !changed.isEmpty else { return }
        emitSignal(path: path, interface: Self.propertiesInterface, member: "PropertiesChanged",
                   [.string(interface), .vardict(changed), .strings([])])
    }

    /// Answers a call that was answered with ``MethodResult/later``.
    public func reply(to message: BusMessage, _ result: MethodResult) {
        guard message.expectsReply else { return }
        switch result {
        case .reply(let values): connection.send(message.makeReply(values))
        case .error(let error): connection.send(message.makeError(error))
        case .later: break
        }
    }

    private func handle(_ message: BusMessage) -> Bool {
        guard message.kind == .methodCall, let path = message.path, let member = message.member else {
            return onOtherMessage?(message) ?? false
        }
        // What is not this server's to answer goes back to libdbus, which answers it.
        if objects[path] == nil {
            switch message.interface {
            case Self.introspectableInterface where member == "Introspect":
                if children(of: path).isEmpty { return false }
            case let interface? where interface.hasPrefix("org.freedesktop.DBus"): return false
            default: break
            }
        }
        guard let admit else {
            serve(message)
            return true
        }
        admit(message.sender ?? "") { [weak self] in self?.serve(message) }
        return true
    }

    private func serve(_ message: BusMessage) {
        let path = message.path ?? "", sender = message.sender ?? ""
        if let denied = accessError?(path, sender) { return reply(to: message, .error(denied)) }
        reply(to: message, dispatch(message, path: path, member: message.member ?? "", sender: sender))
    }

    private func dispatch(_ message: BusMessage, path: String, member: String, sender: String) -> MethodResult {
        let interface = message.interface
        if interface == Self.introspectableInterface, member == "Introspect" {
            return .reply([.string(introspect(path, for: sender))])
        }
        guard let interfaces = objects[path] else { return .error(.unknownObject("no object at \(path)")) }
        if interface == Self.propertiesInterface { return properties(member, message, interfaces) }
        let candidates = interfaces.filter { interface == nil || $0.name == interface }
        guard let method = candidates.lazy.compactMap({ $0.methods[member] }).first else {
            return .error(.unknownMethod("no method \(interface ?? "").\(member) at \(path)"))
        }
        guard message.signature == method.inputSignature else {
            return .error(.invalidArgs("\(member) takes (\(method.inputSignature)), not (\(message.signature))"))
        }
        return method.handler(MethodCall(message: message, arguments: message.arguments))
    }

    private func properties(_ member: String, _ message: BusMessage, _ interfaces: [ExportedInterface]) -> MethodResult {
        let arguments = message.arguments
        let path = message.path ?? ""
        func find(_ name: String?) -> ExportedInterface? { interfaces.first { $0.name == name } }
        switch (member, message.signature) {
        case ("Get", "ss"):
            guard let interface = find(arguments[0].stringValue) else {
                return .error(.invalidArgs("no interface \(arguments[0].stringValue ?? "")"))
            }
            guard let property = interface.properties[arguments[1].stringValue ?? ""] else {
                return .error(.unknownProperty("no property \(arguments[1].stringValue ?? "")"))
            }
            return .reply([.variant(property.get(path))])
        case ("GetAll", "s"):
            guard let interface = find(arguments[0].stringValue) else { return .reply([.vardict([])]) }
            return .reply([.vardict(interface.properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value.get(path)) })])
        case ("Set", "ssv"):
            guard let interface = find(arguments[0].stringValue),
                let property = interface.properties[arguments[1].stringValue ?? ""]
            else {
                return .error(.unknownProperty("no property \(arguments[1].stringValue ?? "")"))
            }
            guard let set = property.set else { return .error(.propertyReadOnly("\(arguments[1].stringValue ?? "") is read-only")) }
            guard case .variant(let value) = arguments[2], value.signature == property.signature else {
                return .error(.invalidArgs("\(arguments[1].stringValue ?? "") takes \(property.signature)"))
            }
            if let error = set(value, message.sender ?? "") { return .error(error) }
            return .reply([])
        case ("Get", _), ("GetAll", _), ("Set", _):
            return .error(.invalidArgs("wrong signature (\(message.signature)) for Properties.\(member)"))
        default:
            return .error(.unknownMethod("no method Properties.\(member)"))
        }
    }

    private func children(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        let names = objects.keys.filter { $0.hasPrefix(prefix) }.compactMap {
            $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
        }
        return Array(Set(names)).sorted()
    }

    /// The introspection XML of a path: the standard interfaces, the object's own, and its children
    /// (those `sender` may reach, when one is given).
    public func introspect(_ path: String, for sender: String? = nil) -> String {
        var xml = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>

            """
        if let interfaces = objects[path] {
            xml += Self.standardInterfacesXML
            for interface in interfaces { xml += interface.introspectionXML + "\n" }
        }
        let prefix = path == "/" ? "/" : path + "/"
        for child in children(of: path) {
            if let sender, accessError?(prefix + child, sender) != nil { continue }
            xml += "  <node name=\"\(child)\"/>\n"
        }
        return xml + "</node>\n"
    }

    static let standardInterfacesXML = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="out"/></method>
            <method name="GetAll"><arg name="interface_name" type="s" direction="in"/><arg name="properties" type="a{sv}" direction="out"/></method>
            <method name="Set"><arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="in"/></method>
            <signal name="PropertiesChanged"><arg name="interface_name" type="s"/><arg name="changed_properties" type="a{sv}"/><arg name="invalidated_properties" type="as"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
          </interface>

        """
}
