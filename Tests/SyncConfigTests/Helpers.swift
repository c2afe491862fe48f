// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

@testable import SyncConfig

/// The error `ConfigLoader.parse` throws for `text` read as `device.yaml`, or nil when it parses.
func parseError(_ text: String, environment: [String: String] = [:]) -> ConfigError? {
    do {
        _ = try ConfigLoader.parse(text: text, path: "device.yaml", environment: environment)
        return nil
    } catch {
        return error
    }
}

/// `text` parsed as `/srv/sync/device.yaml`.
func parsed(_ text: String, environment: [String: String] = [:]) throws -> Configuration {
    try ConfigLoader.parse(text: text, path: "/srv/sync/device.yaml", environment: environment)
}
