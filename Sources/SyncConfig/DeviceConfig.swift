// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// How the control connection is protected.
public enum TLSMode: String, Sendable, Hashable, CaseIterable {
    /// Plain FTP.
    case none
    /// Plain connect, then `AUTH TLS` (RFC 4217 §4).
    case explicit
    /// TLS from the first byte (port 990 by default).
    case implicit
}

/// Where data connections in passive mode go.
public enum PassiveAddressMode: String, Sendable, Hashable, CaseIterable {
    /// Connect to the control connection's peer address, ignoring the address of a 227 reply.
    case peer
    /// Trust the address in the 227 reply.
    case server
}

/// One device of the configuration file, with every default applied and every value validated.
///
/// `description`, `debugDescription` and `dump` show the password (and the proxy's) as `****`.
public struct DeviceConfig: Sendable, Hashable {
    /// Unique name, `[A-Za-z0-9._-]+`, never `.` or `..`.
    public var name: String
    /// Host name or address (IPv6 without brackets).
    public var host: String
    /// TCP port of the control connection: 1...65535; default 21, or 990 with `tls: implicit`.
    public var port: Int
    /// Login user; default `anonymous`.
    public var user: String
    /// Password from `password`, or from the environment variable named by `password_env`;
    /// nil when neither is set.
    public var password: String?
    /// Remote root folder; default `/`.
    public var remote: String
    /// The device's folder as written (relative to the top-level `local`); default: `name`.
    public var local: String
    /// Absolute, normalized path of the device's folder: `<local>/<device.local>`.
    public var localPath: String
    /// Control connection protection; default `.none`.
    public var tls: TLSMode
    /// Pinned SHA-256 digest of the server certificate: 64 lowercase hex digits, no colons.
    public var fingerprint: String?
    /// Where passive data connections go; default `.peer`.
    public var passiveAddress: PassiveAddressMode
    /// Passive mode (true, default) or active mode (false).
    public var passive: Bool
    /// Whether LIST listings ask for dot files too (`LIST -a`, falling back to `LIST` on a
    /// server that does not understand it); default true. MLSD and STAT listings are unchanged.
    public var hidden = true
    /// Parallel data connections: 1...16; default 2.
    public var connections: Int
    /// Seconds without progress before a connection is given up; default 30.
    public var timeout: Double
    /// Zone of LIST times (MLSD times are always UTC); default UTC.
    public var timezone: TimeZone
    /// Lowercased name of the server's file-name encoding (one of `ConfigLoader.knownEncodings`);
    /// default `utf-8`.
    public var encoding: String
    /// Glob patterns relative to the device root; default none.
    public var exclude: [String]
    /// How many times a failed action is tried again: 0...100; default 3.
    public var retries: Int
    /// Seconds: a pull leaves a remote file younger than this (still being written by a camera
    /// or phone) for a later run; 0 (the default) turns the check off.
    public var minAge: Int = 0
    /// Glob patterns of paths to keep (`include`); once one is given, a file no rule keeps is
    /// left out. Default none.
    public var include: [String] = []
    /// The filter file (`filter_from`), absolute, and its rules in file order; default none.
    public var filterFrom: String?
    public var filterRules: [FilterRule] = []
    /// Bytes: files smaller (`min_size`) or larger (`max_size`) are left out; nil: no bound.
    public var minSize: Int64?
    public var maxSize: Int64?
    /// Seconds: files modified longer ago than this are left out (`max_age`); nil: no bound.
    public var maxAge: Int?

    /// The device's glob rules in the order they apply (`FilterRule.combining`).
    public var rules: [FilterRule] {
        FilterRule.combining(filterFrom: filterRules, exclude: exclude, include: include)
    }
    /// What a conflict does (`on_conflict`); nil: the command's default (`keep-both` for pull,
    /// `report` for push). `--on-conflict` wins over it.
    public var onConflict: ConflictPolicy?
    /// The order transfers start in (`order`); nil: the plan's. `--order` wins over it.
    public var order: TransferOrder?
    /// Bytes per second all of this device's transfers together may move (`bwlimit`); nil: no
    /// limit (the default). `--bwlimit` caps the whole run besides.
    public var bwlimit: Int64?
    /// The daily schedule of this device's limit (`bwlimit: "08:00,512k 18:00,off"`), in the
    /// device's `timezone` when set, else the machine's; nil: `bwlimit` holds all day.
    public var bwlimitSchedule: BandwidthSchedule?
    /// Seconds between NOOPs on the control connection during a transfer (`keepalive`), so
    /// that NAT routers keep it; 0 sends none; default 60.
    public var keepalive = 60
    /// The most control connections a device run grows to from `connections` while each one
    /// added makes a run of transfers faster (`max_connections`, 1 to 16); default 16 (a
    /// server's connection limit, met once, is remembered and kept to).
    public var maxConnections = 16
    /// Ranges a large file is downloaded in, over as many connections at once (`segments`,
    /// `--segments`), 1 to 16; default 1 (whole).
    public var segments = 1
    /// Bytes from which a download is fetched in `segments` (`segment_threshold`); default
    /// 64 MiB.
    public var segmentThreshold: Int64 = 64 << 20
    /// A pull deletes each device file once its copy here is verified (`remove_source`,
    /// `--remove-source`); default false. A push ignores it.
    public var removeSource = false
    /// With `removeSource`: also removes the device folders the offload empties (never the
    /// device root; `remove_source_folders`, `--remove-source-folders`); default false.
    public var removeSourceFolders = false
    /// How transfers are checked against the server's hash of the file (`verify`): `auto`
    /// (default), `required` or `off`.
    public var verify = VerifyMode.auto
    /// The proxy the control and data connections go through (`proxy`, with the password from
    /// `proxy_password_env` when set); nil: direct connections (the default, and `proxy: none`).
    /// Never set together with `passive == false`: the configuration refuses it.
    public var proxy: ProxySetting?
    /// Skip certificate verification (TLS still encrypts); default false.
    public var insecure: Bool
    /// Accept a server identity that differs from the recorded one and record the new one; default false.
    public var acceptNewIdentity: Bool
    /// A problem of this device's settings that fails this device only (`FILE:LINE:COLUMN:
    /// message`): an unset `password_env` or `proxy_password_env` variable, an unknown `timezone`.
    /// nil when none. A command leaves such a device alone (status `failed`, exit 1) and runs the
    /// others.
    public var problem: String?
    /// Where the device's mapping starts in the configuration file (for error messages).
    public var position: SourcePosition

    /// Creates a device; every parameter after `localPath` has the configuration file's default.
    public init(
        name: String, host: String, localPath: String, port: Int? = nil, user: String = "anonymous",
        password: String? = nil, remote: String = "/", local: String? = nil, tls: TLSMode = .none,
        fingerprint: String? = nil, passiveAddress: PassiveAddressMode = .peer, passive: Bool = true,
        connections: Int = 2, timeout: Double = 30, timezone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current,
        encoding: String = "utf-8", exclude: [String] = [], retries: Int = 3, insecure: Bool = false,
        acceptNewIdentity: Bool = false, position: SourcePosition = SourcePosition(line: 1, column: 1)
    ) {
        self.name = name
        self.host = host
        self.port = port ?? (tls == .implicit ? 990 : 21)
        self.user = user
        self.password = password
        self.remote = remote
        self.local = local ?? name
        self.localPath = localPath
        self.tls = tls
        self.fingerprint = fingerprint
        self.passiveAddress = passiveAddress
        self.passive = passive
        self.connections = connections
        self.timeout = timeout
        self.timezone = timezone
        self.encoding = encoding
        self.exclude = exclude
        self.retries = retries
        self.insecure = insecure
        self.acceptNewIdentity = acceptNewIdentity
        self.position = position
    }
}

extension DeviceConfig: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A one-line summary; the password appears as `****`, and so does the proxy's.
    public var description: String {
        "device \(name): \(user)@\(host):\(port)\(remote) -> \(localPath) (tls: \(tls.rawValue), password: "
            + (password == nil ? "none" : "****") + (proxy.map { ", proxy: \($0)" } ?? "") + ")"
    }

    /// Same as `description`: the password never appears.
    public var debugDescription: String { description }

    /// The fields for `dump` and debuggers, with the passwords masked.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name, "host": host, "port": port, "user": user,
                "password": password == nil ? "nil" : "****", "remote": remote, "local": local,
                "localPath": localPath, "tls": tls, "fingerprint": fingerprint as Any,
                "passiveAddress": passiveAddress, "passive": passive, "hidden": hidden, "connections": connections,
                "timeout": timeout, "timezone": timezone.identifier, "encoding": encoding, "exclude": exclude,
                "retries": retries, "insecure": insecure, "acceptNewIdentity": acceptNewIdentity,
                "proxy": proxy?.description ?? "nil",
            ])
    }
}
