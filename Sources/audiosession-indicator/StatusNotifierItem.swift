// SPDX-License-Identifier: Apache-2.0
import DBusKit
import IndicatorModel

/// The item as `org.kde.StatusNotifierItem` at ``path``: its properties follow the presentation, and
/// each change is announced with the item's `New…` signals. Clicks on the item itself do nothing: the
/// menu is the item (`ItemIsMenu`).
final class StatusNotifierItem {
    static let path = "/StatusNotifierItem"
    static let interface = "org.kde.StatusNotifierItem"
    static let watcherName = "org.kde.StatusNotifierWatcher"
    static let watcherPath = "/StatusNotifierWatcher"

    private let objects: ObjectServer
    private var shown: Presentation

    init(objects: ObjectServer, showing presentation: Presentation) {
        self.objects = objects
        shown = presentation
    }

    /// Shows `presentation`, announcing what changed.
    func show(_ presentation: Presentation) {
        let old = shown
        shown = presentation
        if old.status != presentation.status { signal("NewStatus", [.string(presentation.status.rawValue)]) }
        if old.iconName != presentation.iconName { signal("NewIcon") }
        if old.tooltipTitle != presentation.tooltipTitle || old.tooltipBody != presentation.tooltipBody { signal("NewToolTip") }
    }

    private func signal(_ member: String, _ arguments: [BusValue] = []) {
        objects.emitSignal(path: Self.path, interface: Self.interface, member: member, arguments)
    }

    /// `ToolTip`: icon name, icon pixmaps (none), title, body.
    private var toolTip: BusValue {
        .structure([.string(shown.iconName), .array(element: "(iiay)", []), .string(shown.tooltipTitle), .string(shown.tooltipBody)])
    }

    func interface() -> ExportedInterface {
        let nothing = { (_: MethodCall) in MethodResult.reply([]) }
        let methods: [String: ExportedMethod] = [
            "ContextMenu": ExportedMethod("ii", nothing), "Activate": ExportedMethod("ii", nothing),
            "SecondaryActivate": ExportedMethod("ii", nothing), "Scroll": ExportedMethod("is", nothing),
        ]
        let properties: [String: ExportedProperty] = [
            "Category": ExportedProperty("s", get: { .string("SystemServices") }),
            "Id": ExportedProperty("s", get: { .string("audiosession-indicator") }),
            "Title": ExportedProperty("s", get: { .string(Presentation.title) }),
            "Status": ExportedProperty("s", get: { [unowned self] in .string(shown.status.rawValue) }),
            "IconName": ExportedProperty("s", get: { [unowned self] in .string(shown.iconName) }),
            "IconThemePath": ExportedProperty("s", get: { .string("") }),
            "AttentionIconName": ExportedProperty("s", get: { .string("") }),
            "OverlayIconName": ExportedProperty("s", get: { .string("") }),
            "ToolTip": ExportedProperty("(sa(iiay)ss)", get: { [unowned self] in toolTip }),
            "ItemIsMenu": ExportedProperty("b", get: { .bool(true) }),
            "Menu": ExportedProperty("o", get: { .objectPath(DBusMenu.path) }),
            "WindowId": ExportedProperty("i", get: { .int32(0) }),
        ]
        return ExportedInterface(name: Self.interface, methods: methods, properties: properties, introspectionXML: Self.introspection)
    }

    static let introspection = """
          <interface name="org.kde.StatusNotifierItem">
            <method name="ContextMenu"><arg type="i" name="x" direction="in"/><arg type="i" name="y" direction="in"/></method>
            <method name="Activate"><arg type="i" name="x" direction="in"/><arg type="i" name="y" direction="in"/></method>
            <method name="SecondaryActivate"><arg type="i" name="x" direction="in"/><arg type="i" name="y" direction="in"/></method>
            <method name="Scroll"><arg type="i" name="delta" direction="in"/><arg type="s" name="orientation" direction="in"/></method>
            <signal name="NewTitle"/><signal name="NewIcon"/><signal name="NewAttentionIcon"/><signal name="NewOverlayIcon"/>
            <signal name="NewToolTip"/><signal name="NewStatus"><arg type="s" name="status"/></signal>
            <property name="Category" type="s" access="read"/>
            <property name="Id" type="s" access="read"/>
            <property name="Title" type="s" access="read"/>
            <property name="Status" type="s" access="read"/>
            <property name="WindowId" type="i" access="read"/>
            <property name="IconName" type="s" access="read"/>
            <property name="IconThemePath" type="s" access="read"/>
            <property name="OverlayIconName" type="s" access="read"/>
            <property name="AttentionIconName" type="s" access="read"/>
            <property name="ToolTip" type="(sa(iiay)ss)" access="read"/>
            <property name="ItemIsMenu" type="b" access="read"/>
            <property name="Menu" type="o" access="read"/>
          </interface>
        """
}
