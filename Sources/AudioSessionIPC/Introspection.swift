// SPDX-License-Identifier: Apache-2.0
/// The introspection XML of the bridge's interfaces, as served and as installed
/// (`interfaces/*.xml` in the repository are written from these and checked against them).
public enum Introspection {
    public static let manager = """
          <interface name="io.github.audiosession.Bridge1">
            <method name="CreateSession">
              <arg name="app_id" type="s" direction="in"/>
              <arg name="hints" type="a{sv}" direction="in"/>
              <arg name="session" type="o" direction="out"/>
              <arg name="stream_token" type="s" direction="out"/>
            </method>
            <method name="ListSessions">
              <arg name="sessions" type="ao" direction="out"/>
            </method>
            <method name="Snapshot">
              <arg name="json" type="s" direction="out"/>
            </method>
            <method name="SetRecordPermission">
              <arg name="app_id" type="s" direction="in"/>
              <arg name="permission" type="s" direction="in"/>
            </method>
            <method name="RecordPermissions">
              <arg name="permissions" type="a{ss}" direction="out"/>
            </method>
            <method name="WatchEvents"/>
            <method name="EventHistory">
              <arg name="since_ms" type="t" direction="in"/>
              <arg name="until_ms" type="t" direction="in"/>
              <arg name="records" type="as" direction="out"/>
            </method>
            <property name="SilentMode" type="b" access="readwrite"/>
            <property name="ScreenLocked" type="b" access="read"/>
            <property name="ServerName" type="s" access="read"/>
            <property name="Version" type="s" access="read"/>
            <signal name="SessionAdded">
              <arg name="session" type="o"/>
            </signal>
            <signal name="SessionRemoved">
              <arg name="session" type="o"/>
            </signal>
            <signal name="Event">
              <arg name="json" type="s"/>
            </signal>
          </interface>
        """

    public static let session = """
          <interface name="io.github.audiosession.Session1">
            <method name="SetCategory">
              <arg name="category" type="s" direction="in"/>
              <arg name="mode" type="s" direction="in"/>
              <arg name="options" type="as" direction="in"/>
            </method>
            <method name="SetMode">
              <arg name="mode" type="s" direction="in"/>
            </method>
            <method name="SetActive">
              <arg name="active" type="b" direction="in"/>
              <arg name="options" type="as" direction="in"/>
            </method>
            <method name="RequestActivation">
              <arg name="options" type="as" direction="in"/>
              <arg name="state" type="s" direction="out"/>
            </method>
            <method name="SetPreferredSampleRate">
              <arg name="hz" type="d" direction="in"/>
            </method>
            <method name="SetPreferredIOBufferDuration">
              <arg name="seconds" type="d" direction="in"/>
            </method>
            <method name="SetPreferredInput">
              <arg name="uid" type="s" direction="in"/>
            </method>
            <method name="SetInputGain">
              <arg name="gain" type="d" direction="in"/>
            </method>
            <method name="OverrideOutputAudioPort">
              <arg name="port" type="s" direction="in"/>
            </method>
            <method name="SetPrefersNoInterruptionsFromSystemAlerts">
              <arg name="prefers" type="b" direction="in"/>
            </method>
            <method name="RequestRecordPermission">
              <arg name="granted" type="b" direction="out"/>
            </method>
            <method name="SetNowPlayingPlayer">
              <arg name="mpris_bus_name" type="s" direction="in"/>
            </method>
            <method name="Release"/>
            <property name="AppId" type="s" access="read"/>
            <property name="StreamToken" type="s" access="read"/>
            <property name="Category" type="s" access="read"/>
            <property name="Mode" type="s" access="read"/>
            <property name="CategoryOptions" type="as" access="read"/>
            <property name="IsActive" type="b" access="read"/>
            <property name="IsInterrupted" type="b" access="read"/>
            <property name="ActivationState" type="s" access="read"/>
            <property name="CurrentRoute" type="(aa{sv}aa{sv})" access="read"/>
            <property name="AvailableInputs" type="aa{sv}" access="read"/>
            <property name="IsInputAvailable" type="b" access="read"/>
            <property name="PreferredInput" type="s" access="read"/>
            <property name="InputGain" type="d" access="read"/>
            <property name="IsInputGainSettable" type="b" access="read"/>
            <property name="IsOtherAudioPlaying" type="b" access="read"/>
            <property name="SecondaryAudioShouldBeSilencedHint" type="b" access="read"/>
            <property name="SampleRate" type="d" access="read"/>
            <property name="PreferredSampleRate" type="d" access="read"/>
            <property name="IOBufferDuration" type="d" access="read"/>
            <property name="PreferredIOBufferDuration" type="d" access="read"/>
            <property name="OutputLatency" type="d" access="read"/>
            <property name="InputLatency" type="d" access="read"/>
            <property name="OutputVolume" type="d" access="read"/>
            <property name="OutputNumberOfChannels" type="i" access="read"/>
            <property name="InputNumberOfChannels" type="i" access="read"/>
            <property name="PrefersNoInterruptionsFromSystemAlerts" type="b" access="read"/>
            <property name="NowPlayingPlayer" type="s" access="read"/>
            <property name="RecordPermission" type="s" access="read"/>
            <signal name="Interruption">
              <arg name="type" type="s"/>
              <arg name="info" type="a{sv}"/>
            </signal>
            <signal name="RouteChange">
              <arg name="reason" type="s"/>
              <arg name="previous_route" type="(aa{sv}aa{sv})"/>
            </signal>
            <signal name="SilenceSecondaryAudioHint">
              <arg name="type" type="s"/>
            </signal>
            <signal name="MediaServicesWereLost"/>
            <signal name="MediaServicesWereReset"/>
            <signal name="ActivationGranted"/>
          </interface>
        """

    /// A whole introspection document for one interface, as installed in `interfaces/`.
    public static func document(_ interface: String) -> String {
        """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
        \(interface)
        </node>

        """
    }
}
