// SPDX-License-Identifier: Apache-2.0
// seed-route-handler: seed 004's route-change handler, with `AV` dropped and nothing else changed,
// in a player that uses the shared session on the session bus. It plays (category playback, active)
// and prints "headphonesConnected: true|false" after each route change it handles. On Linux the
// handler is registered with a block observer (there are no selectors), which hands it the
// notification as the NSNotification it takes.
import AudioSessionKit
import Foundation

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

final class Player: @unchecked Sendable {
    var headphonesConnected = false

    // The seed's handler, with `AV` dropped.
    func handleRouteChange(notification: NSNotification) {
        guard let userInfo = notification.userInfo,
            let reasonValue = userInfo[AudioSessionRouteChangeReasonKey] as? UInt,
            let reason = AudioSessionRouteChangeReason(rawValue:reasonValue) else {
                return
        }
        switch reason {
        case .newDeviceAvailable:
            let session = AudioSession.sharedInstance()
            for output in session.currentRoute.outputs where output.portType == AudioSessionPortHeadphones {
                headphonesConnected = true
            }
        case .oldDeviceUnavailable:
            if let previousRoute =
                userInfo[AudioSessionRouteChangePreviousRouteKey] as? AudioSessionRouteDescription {
                for output in previousRoute.outputs where output.portType == AudioSessionPortHeadphones {
                    headphonesConnected = false
                    break
                }
            }
        default: ()
        }
    }
}

let player = Player()
let session = AudioSession.sharedInstance()
let observer = NotificationCenter.default.addObserver(forName: .AudioSessionRouteChange, object: session, queue: nil) {
    player.handleRouteChange(notification: NSNotification(name: $0.name, object: $0.object, userInfo: $0.userInfo))
    say("headphonesConnected: \(player.headphonesConnected)")
}
do {
    try session.setCategory(AudioSessionCategoryPlayback, mode: AudioSessionModeDefault, options: [])
    try session.setActive(true)
    say("seed-route-handler: active")
} catch {
    say("seed-route-handler: \(error)")
    exit(1)
}
while true { sleep(60) }
