// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import AudioSessionIPC
import ArgumentParser
import CommandLineSupport
import DBusKit
import Foundation
import Glibc

struct BridgeCalls {
    let connection: BusConnection

    init() throws {
        do {
            connection = try BusConnection(.session)
        } catch {
            writeToStandardError(
                "audiosessionctl: cannot reach the session bus (\(error.message)); is DBUS_SESSION_BUS_ADDRESS set?\n")
            throw ExitCode(1)
        }
    }

    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue]) throws -> [BusValue] {
        do {
            return try connection.call(.methodCall(destination: BusContract.busName, path: path, interface: interface,
                                                   member: member, arguments)).arguments
        } catch {
            writeToStandardError("audiosessionctl: \(member) failed: \(error); is audiosessiond running?\n")
            throw ExitCode(1)
        }
    }
}
