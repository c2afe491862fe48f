// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// `CONFIG` when given, else `$FTPSYNC_CONFIG`, else `./device.yaml`.
func resolveConfigPath(_ given: String?, environment: [String: String]) -> String {
    if let given { return given }
    if let fromEnvironment = environment["FTPSYNC_CONFIG"], !fromEnvironment.isEmpty { return fromEnvironment }
    return "device.yaml"
}
