// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

extension Configuration {
    /// Checks the rule of `pull`: no two devices may map to the same local folder or to
    /// folders nested one in the other (push allows shared folders, for fan-out).
    /// Call it for `pull` only; devices not taking part can be left out with `devices`.
    /// - Parameter devices: the devices of this run; nil checks all devices.
    /// - Throws: `ConfigError` at the position of the later device of the first clashing pair,
    ///   naming both devices and their folders.
    public func checkPullLayout(devices selected: [DeviceConfig]? = nil) throws(ConfigError) {
        let devices = selected ?? self.devices
        // Sorted as folders (with a final `/`), a folder and one nested in it or equal to it
        // have only folders inside the first between them: a clash shows in a neighbouring
        // pair. Only then are the pairs compared in file order, to name the first.
        let folders = devices.map { $0.localPath.hasSuffix("/") ? $0.localPath : $0.localPath + "/" }.sorted()
        guard zip(folders, folders.dropFirst()).contains(where: { $1.hasPrefix($0) }) else { return }
        for (index, device) in devices.enumerated() {
            for earlier in devices[..<index] {
                let message: String
                if earlier.localPath == device.localPath {
                    message =
                        "devices '\(earlier.name)' and '\(device.name)' both map to the local folder "
                        + "\(device.localPath); pull needs a separate folder per device (set 'local')"
                } else if isNested(device.localPath, in: earlier.localPath) {
                    message =
                        "the local folder of device '\(device.name)' (\(device.localPath)) is inside that of "
                        + "device '\(earlier.name)' (\(earlier.localPath)); pull needs separate folders"
                } else if isNested(earlier.localPath, in: device.localPath) {
                    message =
                        "the local folder of device '\(device.name)' (\(device.localPath)) contains that of "
                        + "device '\(earlier.name)' (\(earlier.localPath)); pull needs separate folders"
                } else {
                    continue
                }
                throw ConfigError(file: displayPath, position: device.position, message: message)
            }
        }
    }
}

/// True when normalized absolute `path` lies strictly inside `folder`.
private func isNested(_ path: String, in folder: String) -> Bool {
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    return path.hasPrefix(prefix) && path.count > prefix.count
}
