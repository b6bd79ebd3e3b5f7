// SPDX-License-Identifier: Apache-2.0
import DBusKit
import IndicatorModel

/// The menu as `com.canonical.dbusmenu` (version 3) at ``path``: the layout of the presentation's
/// items, numbered by their keys (a key keeps its number while the program runs), and clicks turned
/// into the items' commands.
final class DBusMenu {
    static let path = "/MenuBar"
    static let interface = "com.canonical.dbusmenu"

    private let objects: ObjectServer
    private let clicked: (MenuCommand) -> Void
    private var items: [MenuItem] = []
    private var numbers: [String: Int32] = [:]
    private var commands: [Int32: MenuCommand] = [:]
    private(set) var revision: UInt32 = 1

    init(objects: ObjectServer, clicked: @escaping (MenuCommand) -> Void) {
        self.objects = objects
        self.clicked = clicked
    }

    /// Shows `items`; tells the host when the layout changed.
    func show(_ items: [MenuItem]) {
        guard items != self.items else { return }
        self.items = items
        commands = [:]
        number(items)
        revision += 1
        objects.emitSignal(path: Self.path, interface: Self.interface, member: "LayoutUpdated", [.uint32(revision), .int32(0)])
    }

    private func number(_ items: [MenuItem]) {
        for item in items {
            let id = self.id(of: item.key)
            if let command = item.command { commands[id] = command }
            number(item.children)
        }
    }

    private func id(of key: String) -> Int32 {
        if let known = numbers[key] { return known }
        let next = Int32(numbers.count + 1)
        numbers[key] = next
        return next
    }

    /// The item numbered `id` (0 is the root) and its children.
    private func find(_ id: Int32, in items: [MenuItem]) -> MenuItem? {
        for item in items {
            if numbers[item.key] == id { return item }
            if let found = find(id, in: item.children) { return found }
        }
        return nil
    }

    private func properties(of item: MenuItem) -> [(String, BusValue)] {
        if item.isSeparator { return [("type", .string("separator"))] }
        var properties: [(String, BusValue)] = [("label", .string(item.label.replacingOccurrences(of: "_", with: "__")))]
        if !item.enabled { properties.append(("enabled", .bool(false))) }
        switch item.toggle {
        case .checkmark(let on): properties += [("toggle-type", .string("checkmark")), ("toggle-state", .int32(on ? 1 : 0))]
        case .radio(let on): properties += [("toggle-type", .string("radio")), ("toggle-state", .int32(on ? 1 : 0))]
        case nil: break
        }
        if !item.children.isEmpty { properties.append(("children-display", .string("submenu"))) }
        return properties
    }

    private func layout(_ id: Int32, _ properties: [(String, BusValue)], _ children: [MenuItem], depth: Int32) -> BusValue {
        let nested = depth == 0 ? [] : children.map { child in
            BusValue.variant(layout(self.id(of: child.key), self.properties(of: child), child.children, depth: depth - 1))
        }
        return .structure([.int32(id), .vardict(properties), .array(element: "v", nested)])
    }

    /// The exported interface.
    func interface() -> ExportedInterface {
        let methods: [String: ExportedMethod] = [
            "GetLayout": ExportedMethod("iias") { [unowned self] call in
                let parent = call.arguments[0].int32Value ?? 0
                let depth = call.arguments[1].int32Value ?? -1
                let (properties, children): ([(String, BusValue)], [MenuItem])
                if parent == 0 {
                    (properties, children) = ([("children-display", .string("submenu"))], items)
                } else if let item = find(parent, in: items) {
                    (properties, children) = (self.properties(of: item), item.children)
                } else {
                    return .error(BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "no menu item \(parent)"))
                }
                return .reply([.uint32(revision), layout(parent, properties, children, depth: depth < 0 ? Int32.max : depth)])
            },
            "GetGroupProperties": ExportedMethod("aias") { [unowned self] call in
                let ids = (call.arguments[0].arrayItems ?? []).compactMap(\.int32Value)
                let found = ids.compactMap { id in find(id, in: items).map { (id, $0) } }
                return .reply([.array(element: "(ia{sv})", found.map { .structure([.int32($0.0), .vardict(self.properties(of: $0.1))]) })])
            },
            "GetProperty": ExportedMethod("is") { [unowned self] call in
                let id = call.arguments[0].int32Value ?? 0
                let name = call.arguments[1].stringValue ?? ""
                guard let item = find(id, in: items), let value = self.properties(of: item).first(where: { $0.0 == name })?.1 else {
                    return .error(BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "no property \(name) of item \(id)"))
                }
                return .reply([.variant(value)])
            },
            "Event": ExportedMethod("isvu") { [unowned self] call in
                if call.arguments[1].stringValue == "clicked", let id = call.arguments[0].int32Value { click(id) }
                return .reply([])
            },
            "EventGroup": ExportedMethod("a(isvu)") { [unowned self] call in
                let events = (call.arguments[0].arrayItems ?? []).compactMap(\.structureFields)
                var unknown: [BusValue] = []
                for event in events {
                    guard let id = event.first?.int32Value else { continue }
                    if find(id, in: items) == nil { unknown.append(.int32(id)) }
                    if event.count > 1, event[1].stringValue == "clicked" { click(id) }
                }
                return .reply([.array(element: "i", unknown)])
            },
            "AboutToShow": ExportedMethod("i") { _ in .reply([.bool(false)]) },
            "AboutToShowGroup": ExportedMethod("ai") { _ in .reply([.array(element: "i", []), .array(element: "i", [])]) },
        ]
        let properties: [String: ExportedProperty] = [
            "Version": ExportedProperty("u", get: { .uint32(3) }),
            "TextDirection": ExportedProperty("s", get: { .string("ltr") }),
            "Status": ExportedProperty("s", get: { .string("normal") }),
            "IconThemePath": ExportedProperty("as", get: { .strings([]) }),
        ]
        return ExportedInterface(name: Self.interface, methods: methods, properties: properties, introspectionXML: Self.introspection)
    }

    private func click(_ id: Int32) {
        if let command = commands[id] { clicked(command) }
    }

    static let introspection = """
          <interface name="com.canonical.dbusmenu">
            <method name="GetLayout"><arg type="i" name="parentId" direction="in"/><arg type="i" name="recursionDepth" direction="in"/><arg type="as" name="propertyNames" direction="in"/><arg type="u" name="revision" direction="out"/><arg type="(ia{sv}av)" name="layout" direction="out"/></method>
            <method name="GetGroupProperties"><arg type="ai" name="ids" direction="in"/><arg type="as" name="propertyNames" direction="in"/><arg type="a(ia{sv})" name="properties" direction="out"/></method>
            <method name="GetProperty"><arg type="i" name="id" direction="in"/><arg type="s" name="name" direction="in"/><arg type="v" name="value" direction="out"/></method>
            <method name="Event"><arg type="i" name="id" direction="in"/><arg type="s" name="eventId" direction="in"/><arg type="v" name="data" direction="in"/><arg type="u" name="timestamp" direction="in"/></method>
            <method name="EventGroup"><arg type="a(isvu)" name="events" direction="in"/><arg type="ai" name="idErrors" direction="out"/></method>
            <method name="AboutToShow"><arg type="i" name="id" direction="in"/><arg type="b" name="needUpdate" direction="out"/></method>
            <method name="AboutToShowGroup"><arg type="ai" name="ids" direction="in"/><arg type="ai" name="updatesNeeded" direction="out"/><arg type="ai" name="idErrors" direction="out"/></method>
            <signal name="ItemsPropertiesUpdated"><arg type="a(ia{sv})" name="updatedProps"/><arg type="a(ias)" name="removedProps"/></signal>
            <signal name="LayoutUpdated"><arg type="u" name="revision"/><arg type="i" name="parent"/></signal>
            <signal name="ItemActivationRequested"><arg type="i" name="id"/><arg type="u" name="timestamp"/></signal>
            <property name="Version" type="u" access="read"/>
            <property name="TextDirection" type="s" access="read"/>
            <property name="Status" type="s" access="read"/>
            <property name="IconThemePath" type="as" access="read"/>
          </interface>
        """
}
