// SPDX-License-Identifier: Apache-2.0
import CDBus

/// A D-Bus message (`DBusMessage`), reference-counted.
public final class BusMessage: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of one reference.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    /// Adds a reference (`dbus_message_ref`).
    init(retaining pointer: OpaquePointer) {
        self.pointer = pointer
        dbus_message_ref(pointer)
    }

    deinit { dbus_message_unref(pointer) }

    /// A method call (`dbus_message_new_method_call`).
    public static func methodCall(destination: String?, path: String, interface: String?, member: String,
                                  _ arguments: [BusValue] = []) -> BusMessage {
        let message = BusMessage(taking: dbus_message_new_method_call(destination, path, interface, member)!)
        message.append(arguments)
        return message
    }

    /// A signal (`dbus_message_new_signal`): a broadcast, or a unicast to `destination` when one is given.
    public static func signal(path: String, interface: String, member: String, _ arguments: [BusValue] = [],
                              destination: String? = nil) -> BusMessage
    {
        let message = BusMessage(taking: dbus_message_new_signal(path, interface, member)!)
        if let destination { dbus_message_set_destination(message.pointer, destination) }
        message.append(arguments)
        return message
    }

    /// The reply to this method call (`dbus_message_new_method_return`).
    public func makeReply(_ arguments: [BusValue] = []) -> BusMessage {
        let reply = BusMessage(taking: dbus_message_new_method_return(pointer)!)
        reply.append(arguments)
        return reply
    }

    /// An error reply to this method call (`dbus_message_new_error`).
    public func makeError(_ error: BusError) -> BusMessage {
        BusMessage(taking: dbus_message_new_error(pointer, error.name, error.message)!)
    }

    /// Appends arguments (`dbus_message_iter_init_append`).
    public func append(_ arguments: [BusValue]) {
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(pointer, &iter)
        for argument in arguments { MessageIterator.append(argument, to: &iter) }
    }

    /// Every argument (`dbus_message_iter_init`).
    public var arguments: [BusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(pointer, &iter) != 0 else { return [] }
        return MessageIterator.readAll(&iter)
    }

    private func string(_ value: UnsafePointer<CChar>?) -> String? { value.map { String(cString: $0) } }

    public var path: String? { string(dbus_message_get_path(pointer)) }
    public var interface: String? { string(dbus_message_get_interface(pointer)) }
    public var member: String? { string(dbus_message_get_member(pointer)) }
    public var sender: String? { string(dbus_message_get_sender(pointer)) }
    public var destination: String? { string(dbus_message_get_destination(pointer)) }
    public var signature: String { string(dbus_message_get_signature(pointer)) ?? "" }
    public var errorName: String? { string(dbus_message_get_error_name(pointer)) }
    public var serial: UInt32 { dbus_message_get_serial(pointer) }
    public var expectsReply: Bool { dbus_message_get_no_reply(pointer) == 0 }

    /// The message kind.
    public enum Kind: Sendable { case methodCall, methodReturn, error, signal, other }

    public var kind: Kind {
        switch dbus_message_get_type(pointer) {
        case 1: .methodCall
        case 2: .methodReturn
        case 3: .error
        case 4: .signal
        default: .other
        }
    }

    /// The error this message carries, if it is an error reply.
    public var asError: BusError? {
        guard kind == .error, let name = errorName else { return nil }
        return BusError(name: name, message: arguments.first?.stringValue ?? "")
    }
}
