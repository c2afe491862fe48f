// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The `proxy` and `proxy_password_env` keys of one mapping.
extension DeviceFields {
    /// A `proxy` value: a URL (`ProxySetting.parse`), or nil for `none` (any letter case).
    /// - Throws: `ConfigError` at the value for anything `ProxySetting.parse` refuses, or a value
    ///   that is not a string.
    func readProxy(_ node: YAMLNode, reader: NodeReader) throws(ConfigError) -> ProxySetting? {
        guard let text = node.scalarText else {
            throw reader.error(at: node.position, "'proxy' must be a URL string, found \(node.shortDescription)")
        }
        if !node.isNull && text.lowercased() == "none" { return nil }
        do {
            return try ProxySetting.parse(node.isNull ? "" : text)
        } catch {
            throw reader.error(at: node.position, error.message)
        }
    }

    /// Refuses a password in `proxy` together with `proxy_password_env` in one mapping (a device
    /// or `defaults`), at the later of the two, naming the other.
    static func checkProxyPasswordSources(
        _ proxy: Located<ProxySetting?>?, _ variable: Located<String>?, reader: NodeReader
    ) throws(ConfigError) {
        guard let proxy, proxy.value?.password != nil, let variable else { return }
        let proxyIsLater =
            (proxy.position.line, proxy.position.column) > (variable.position.line, variable.position.column)
        let (here, other) = proxyIsLater ? (proxy.position, variable.position) : (variable.position, proxy.position)
        let otherKey = proxyIsLater ? "proxy_password_env" : "proxy"
        throw reader.error(
            at: here,
            "a password in 'proxy' and 'proxy_password_env' cannot both be set ('\(otherKey)' is at line "
                + "\(other.line), column \(other.column)); keep one")
    }
}

extension DeviceBuilder {
    /// The device's proxy (its own `proxy` wins over `defaults`', `none` lifting it) with its
    /// password, and the device's problem when `proxy_password_env`'s variable cannot be used
    /// (unset, empty, longer than 255 bytes, holding CR, LF or NUL): it fails the device only.
    /// The device's own `proxy_password_env` wins over a password in `defaults`' `proxy` URL or
    /// its `proxy_password_env`; `defaults`' `proxy_password_env` is used only with `defaults`'
    /// proxy (a device with its own `proxy` never sends another proxy's password).
    /// - Throws: `ConfigError` for a proxy with `passive: false` (at the `passive` value, the
    ///   device's or `defaults`'), `proxy_password_env` for a proxy without a user, or the
    ///   device's own `proxy_password_env` without a proxy.
    func proxy(own: DeviceFields) throws(ConfigError) -> (setting: ProxySetting?, problem: ConfigError?) {
        guard let located = own.proxy ?? defaults.proxy, var setting = located.value else {
            if let variable = own.proxyPasswordEnv {
                throw reader.error(
                    at: variable.position,
                    "'proxy_password_env' is set but the device has no 'proxy': add a proxy, or remove "
                        + "'proxy_password_env'")
            }
            return (nil, nil)
        }
        if let passive = own.passive ?? defaults.passive, !passive.value {
            throw reader.error(
                at: passive.position,
                "`passive: false` (active mode) cannot work through 'proxy' (line \(located.position.line), column "
                    + "\(located.position.column)): the server would have to connect back through the proxy; "
                    + "remove `passive: false` or the proxy")
        }
        // `defaults`' secret goes only to `defaults`' proxy: a device with a `proxy` of its own
        // takes the password from its URL or its own `proxy_password_env`, never another proxy's.
        let ownsPassword = own.proxy != nil || own.proxyPasswordEnv != nil
        guard let variable = ownsPassword ? own.proxyPasswordEnv : defaults.proxyPasswordEnv else {
            return (setting, nil)
        }
        guard setting.user != nil else {
            throw reader.error(
                at: variable.position,
                "'proxy_password_env' needs the proxy's user in 'proxy' (line \(located.position.line), column "
                    + "\(located.position.column)), like socks5://alice@127.0.0.1:1080")
        }
        setting.password = nil
        let named = "environment variable '\(variable.value)' (named by 'proxy_password_env')"
        guard let password = environment[variable.value] else {
            return (
                setting,
                reader.error(
                    at: variable.position,
                    named + " is not set (cron and systemd start with almost no environment: set it in the"
                        + " crontab or an EnvironmentFile)")
            )
        }
        guard !password.isEmpty else { return (setting, reader.error(at: variable.position, named + " is empty")) }
        do {
            setting.password = try ProxySetting.checkedCredential(password, what: named)
        } catch {
            return (setting, reader.error(at: variable.position, error.message))
        }
        return (setting, nil)
    }
}
