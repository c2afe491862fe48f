// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncConfig

/// Issue 22: the `proxy` URL, `ProxySetting.parse`: every valid form, every refused one and its message.

/// One `proxy` value that parses, and what it parses to.
struct ValidProxyCase: CustomTestStringConvertible, Sendable {
    let text: String
    let expected: ProxySetting
    /// `description` of the result.
    let shown: String

    var testDescription: String { text }
}

let validProxyCases: [ValidProxyCase] = [
    ValidProxyCase(
        text: "socks5://127.0.0.1:1080", expected: ProxySetting(scheme: .socks5, host: "127.0.0.1", port: 1080),
        shown: "socks5://127.0.0.1:1080"),
    ValidProxyCase(
        text: "socks5://jump.example", expected: ProxySetting(scheme: .socks5, host: "jump.example", port: 1080),
        shown: "socks5://jump.example:1080"),
    ValidProxyCase(
        text: "SOCKS5H://127.0.0.1:9050/", expected: ProxySetting(scheme: .socks5h, host: "127.0.0.1", port: 9050),
        shown: "socks5h://127.0.0.1:9050"),
    ValidProxyCase(
        text: "socks5h://alice@127.0.0.1",
        expected: ProxySetting(scheme: .socks5h, host: "127.0.0.1", port: 1080, user: "alice"),
        shown: "socks5h://alice@127.0.0.1:1080"),
    ValidProxyCase(
        text: "http://bob:s3cret@proxy.example:3128",
        expected: ProxySetting(scheme: .http, host: "proxy.example", port: 3128, user: "bob", password: "s3cret"),
        shown: "http://bob:****@proxy.example:3128"),
    ValidProxyCase(
        text: "http://bob%40corp:p%3Aw%25d%20x@proxy.example:8080",
        expected: ProxySetting(scheme: .http, host: "proxy.example", port: 8080, user: "bob@corp", password: "p:w%d x"),
        shown: "http://bob%40corp:****@proxy.example:8080"),
    ValidProxyCase(
        text: "socks5://[::1]:1080", expected: ProxySetting(scheme: .socks5, host: "::1", port: 1080),
        shown: "socks5://[::1]:1080"),
    ValidProxyCase(
        text: "socks5h://carol:pw@[fe80::1]",
        expected: ProxySetting(scheme: .socks5h, host: "fe80::1", port: 1080, user: "carol", password: "pw"),
        shown: "socks5h://carol:****@[fe80::1]:1080"),
    ValidProxyCase(
        text: "socks5://jörg:pässword@h:1",
        expected: ProxySetting(
            scheme: .socks5, host: "h", port: 1, user: "jörg", password: "pässword"),
        shown: "socks5://j%C3%B6rg:****@h:1"),
    ValidProxyCase(
        text: "socks5://u%3Av:p@h:65535",
        expected: ProxySetting(scheme: .socks5, host: "h", port: 65_535, user: "u:v", password: "p"),
        shown: "socks5://u%3Av:****@h:65535"),
]

@Test(arguments: validProxyCases)
func validProxyParses(_ proxyCase: ValidProxyCase) throws {
    let proxy = try ProxySetting.parse(proxyCase.text)
    #expect(proxy == proxyCase.expected)
    #expect(proxy.description == proxyCase.shown)
    // The same value through the configuration file.
    let config = try parsed("local: m\ndevices:\n  - name: a\n    host: h\n    proxy: \"\(proxyCase.text)\"\n")
    #expect(config.devices[0].proxy == proxyCase.expected)
}

/// One `proxy` value that is refused, and the message.
struct InvalidProxyCase: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    let message: String

    var testDescription: String { name }
}

private let urlHint =
    "'proxy' must be a URL like socks5h://127.0.0.1:1080, socks5://proxy.example:1080 or http://proxy.example:3128"
    + " (or none to connect directly)"
private let portRange = "the port in 'proxy' must be a number from 1 to 65535"
private let noPath = "'proxy' takes no path: write only scheme://[user[:password]@]host[:port]"
private let hostRule =
    "the host in 'proxy' must be a host name (letters, digits, '-', '.'; an international name in its xn-- form)"
    + " or an IP address (IPv6 in brackets)"

let invalidProxyCases: [InvalidProxyCase] = [
    InvalidProxyCase(
        name: "http without port", text: "http://proxy.example",
        message: "an http:// proxy needs its port, like http://proxy.example:3128 (HTTP proxies have no"
            + " standard port)"),
    InvalidProxyCase(
        name: "https", text: "https://proxy.example:443",
        message: "'proxy' cannot be https://: TLS to the proxy is not supported; use http://host:port (FTPS traffic"
            + " still runs end to end in TLS through it)"),
    InvalidProxyCase(
        name: "unknown scheme", text: "socks4://h:1080",
        message: "unknown scheme 'socks4' in 'proxy': use socks5://, socks5h:// or http://"),
    InvalidProxyCase(
        name: "empty scheme", text: "://h:1080",
        message: "'proxy' has no scheme: use socks5://, socks5h:// or http://"),
    InvalidProxyCase(name: "no scheme", text: "127.0.0.1:1080", message: urlHint),
    InvalidProxyCase(name: "no scheme, credentials", text: "alice:hunter2@h:1080", message: urlHint),
    InvalidProxyCase(name: "path", text: "socks5://h:1080/tunnel", message: noPath),
    InvalidProxyCase(name: "double slash", text: "socks5://h:1080//", message: noPath),
    InvalidProxyCase(
        name: "query", text: "http://h:3128/?x=1",
        message: "'proxy' takes no query or fragment ('?', '#'): write only scheme://[user[:password]@]host[:port]"),
    InvalidProxyCase(
        name: "fragment", text: "http://h:3128#top",
        message: "'proxy' takes no query or fragment ('?', '#'): write only scheme://[user[:password]@]host[:port]"),
    InvalidProxyCase(
        name: "slash in the password", text: "socks5://alice:hun/ter2@h:1080",
        message: "a '/', '?' or '#' in the user or password of 'proxy' must be written as %2F, %3F or %23"),
    InvalidProxyCase(
        name: "line feed", text: "socks5://h:1080\n",
        message: "'proxy' must not contain line breaks or NUL characters"),
    InvalidProxyCase(
        name: "carriage return and line feed", text: "socks5://a\r\nb:1080",
        message: "'proxy' must not contain line breaks or NUL characters"),
    InvalidProxyCase(
        name: "NUL", text: "socks5://h\0:1080", message: "'proxy' must not contain line breaks or NUL characters"),
    InvalidProxyCase(
        name: "space", text: "socks5://alice:hunter 2@h:1080",
        message: "'proxy' must not contain spaces or control characters (in a user or password, write a space as %20)"),
    InvalidProxyCase(
        name: "encoded line feed in the password", text: "socks5://alice:a%0Ab@h",
        message: "the password in 'proxy' must not contain line breaks or NUL characters"),
    InvalidProxyCase(
        name: "encoded NUL in the user", text: "socks5://al%00ice@h",
        message: "the user name in 'proxy' must not contain line breaks or NUL characters"),
    InvalidProxyCase(
        name: "user too long", text: "socks5://" + String(repeating: "u", count: 256) + "@h",
        message: "the user name in 'proxy' is longer than 255 bytes (the SOCKS5 limit of RFC 1929)"),
    InvalidProxyCase(
        name: "password too long in UTF-8", text: "socks5://u:" + String(repeating: "é", count: 128) + "@h",
        message: "the password in 'proxy' is longer than 255 bytes (the SOCKS5 limit of RFC 1929)"),
    InvalidProxyCase(
        name: "empty user", text: "socks5://:hunter2@h",
        message: "the user name in 'proxy' is empty: write user@host, or no '@' at all"),
    InvalidProxyCase(
        name: "empty password", text: "socks5://alice:@h",
        message: "the password in 'proxy' is empty: leave out the ':' after the user (or give the password in"
            + " proxy_password_env)"),
    InvalidProxyCase(
        name: "two @", text: "socks5://alice:p@ss@h",
        message: "'proxy' has more than one '@': write an '@' in the user or password as %40"),
    InvalidProxyCase(
        name: "bad escape", text: "socks5://alice:100%@h",
        message: "the password in 'proxy' has a '%' without two hex digits after it: write a '%' itself as %25"),
    InvalidProxyCase(
        name: "escape not UTF-8", text: "socks5://al%FFice@h",
        message: "the user name in 'proxy' is not UTF-8 text once its %-escapes are decoded"),
    InvalidProxyCase(
        name: "colon in an HTTP user", text: "http://a%3Ab:c@h:3128",
        message: "the user name of an http:// proxy cannot contain ':' (%3A): Basic authentication (RFC 7617) splits"
            + " user and password at the first ':'"),
    InvalidProxyCase(
        name: "empty host", text: "socks5://:1080",
        message: "'proxy' names no host: write scheme://host:port, like socks5h://127.0.0.1:1080"),
    InvalidProxyCase(
        name: "no host after the user", text: "socks5://alice:pw@",
        message: "'proxy' names no host: write scheme://host:port, like socks5h://127.0.0.1:1080"),
    InvalidProxyCase(
        name: "nothing after the scheme", text: "socks5://",
        message:
            "'proxy' names no host: write scheme://host:port, like socks5h://127.0.0.1:1080"),
    InvalidProxyCase(name: "port 0", text: "socks5://h:0", message: portRange),
    InvalidProxyCase(name: "port 70000", text: "http://h:70000", message: portRange),
    InvalidProxyCase(name: "empty port", text: "http://h:", message: portRange),
    InvalidProxyCase(name: "signed port", text: "http://h:+80", message: portRange),
    InvalidProxyCase(name: "huge port", text: "http://h:99999999999999999999999", message: portRange),
    InvalidProxyCase(name: "password where the host goes", text: "socks5://alice:hunter2", message: portRange),
    InvalidProxyCase(
        name: "IPv6 without brackets", text: "socks5://::1:1080",
        message: "an IPv6 address in 'proxy' must be in brackets: socks5://[::1]:1080"),
    InvalidProxyCase(
        name: "unclosed bracket", text: "socks5://[::1:1080",
        message: "'proxy' has a '[' without its ']': write an IPv6 address as [::1]"),
    InvalidProxyCase(
        name: "not IPv6 in brackets", text: "socks5://[jump.example]:1080",
        message: "'proxy' holds something other than an IPv6 address in brackets: write [::1]:1080"),
    InvalidProxyCase(
        name: "garbage after brackets", text: "socks5://[::1]x",
        message: "in 'proxy', only ':port' may follow an IPv6 address in brackets: [::1]:1080"),
    InvalidProxyCase(name: "percent in host", text: "socks5://h%41:1080", message: hostRule),
    InvalidProxyCase(name: "non-ASCII host", text: "socks5://bücher.example", message: hostRule),
    InvalidProxyCase(
        name: "bad IPv4", text: "socks5://300.1.1.1:1080",
        message: "the host in 'proxy' is not a valid IPv4 address (four numbers 0-255: 127.0.0.1)"),
    InvalidProxyCase(
        name: "empty", text: "",
        message: "'proxy' must not be empty: write a URL like socks5h://127.0.0.1:1080, or none to connect directly"),
]

@Test(arguments: invalidProxyCases)
func invalidProxyIsRefused(_ proxyCase: InvalidProxyCase) throws {
    #expect(throws: ProxySetting.ParseError(proxyCase.message)) { try ProxySetting.parse(proxyCase.text) }
    for secret in ["hunter2", "hunter 2", "hun/ter2"] {
        #expect(!proxyCase.message.contains(secret))
    }
}

/// A value YAML can carry (no line break or NUL) is reported at the `proxy` value.
@Test(
    arguments: invalidProxyCases.filter {
        !$0.text.unicodeScalars.contains(where: { "\r\n\0".unicodeScalars.contains($0) })
    })
func invalidProxyIsAConfigErrorAtTheValue(_ proxyCase: InvalidProxyCase) throws {
    let quoted = proxyCase.text.replacingOccurrences(of: "'", with: "''")
    let error = try #require(parseError("local: m\ndevices:\n  - name: a\n    host: h\n    proxy: '\(quoted)'\n"))
    #expect(error.description == "device.yaml:5:12: " + proxyCase.message)
}
