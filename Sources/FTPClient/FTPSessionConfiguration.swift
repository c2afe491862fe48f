// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Which address data connections go to in passive mode.
public enum PassiveAddressPolicy: String, Sendable, Equatable {
    /// The control connection's peer address, whatever a 227 reply names (the default:
    /// safe against NAT-misconfigured servers and against a server making the client
    /// connect elsewhere). Only the 227 reply's port is used.
    case peer
    /// The address in the 227 reply (for clustered servers with a separate data host);
    /// `0.0.0.0` still means the peer.
    case server
}

/// Everything needed to open one control connection and log in.
public struct FTPSessionConfiguration: Sendable, Equatable {
    /// Every secret of this device, masked in whatever the server sends before it is shown or
    /// stored (`SecretScrubber`): the password and `additionalSecrets`.
    public var secrets: [String] { [password] + additionalSecrets + (proxy?.secrets ?? []) }

    /// Host name, IPv4 or IPv6 literal (without brackets).
    public var host: String
    /// TCP port of the control connection.
    public var port: Int
    /// User name for USER (RFC 959 §4.1.1).
    public var user: String
    /// Password for PASS; never logged or shown in errors.
    public var password: String
    /// Other secrets of this device (proxy credentials) that no text from the server may show.
    public var additionalSecrets: [String] = []
    /// Where data connections go in passive mode.
    public var passiveAddress: PassiveAddressPolicy
    /// Seconds without progress (connect, a reply, a data read or write) before giving up.
    public var timeout: Double
    /// The server's file-name encoding for iconv (`gbk`, `latin1`, `shift_jis`, ...); nil = UTF-8.
    public var encoding: String?
    /// TLS on the control and data connections (RFC 4217); default none.
    public var tls: FTPTLSMode
    /// How the server's certificate is checked when `tls` is set; default the system CA store.
    public var certificateCheck: CertificateCheck
    /// Highest TLS version offered; default TLS 1.3.
    public var tlsVersionLimit: TLSVersionLimit
    /// Passive mode (true, the default: EPSV, else PASV) or active mode (false: the client
    /// listens on the control connection's local address and names it with EPRT, else PORT;
    /// RFC 2428 §2, RFC 959 §4.1.2).
    public var passive = true
    /// Whether LIST asks for dot files too (`LIST -a`; vsftpd hides them without it), falling
    /// back to plain `LIST` on a server that does not understand `-a`; default false (plain
    /// `LIST`). MLSD and STAT listings are unchanged.
    public var listsHidden = false
    /// The caps the data connections of this session move under (downloads, uploads and
    /// listings), all at once: share one `BandwidthLimit` between sessions to cap them
    /// together; default none.
    public var bandwidthLimits: [BandwidthLimit] = []
    /// Seconds between NOOPs on the control connection while a data connection moves, so that
    /// NAT routers and firewalls keep the silent control connection (their replies are read in
    /// order with the transfer's own); 0 (the default) sends none. A server that answers them
    /// with an error or out of step gets none for the rest of the process
    /// (`FTPSession.keepaliveOffReason`).
    public var keepaliveSeconds: Double = 0
    /// Whether a passive transfer sends EPSV, REST and the transfer command in one write
    /// instead of waiting for each reply (pipelining: one round trip less per transfer). A
    /// server that loses or refuses the pipelined command is detected on the session's first
    /// one and gets the commands one at a time from then on (`FTPSession.pipelineOffReason`);
    /// default true.
    public var pipelining = true
    /// Asked while a transfer waits for its share of `bandwidthLimits` (between slices of at
    /// most 0.25 s): once it says stop, the wait ends at once, so the caller's stop request
    /// reaches the transfer's next chunk instead of waiting off the bandwidth debt (seconds under
    /// a small limit); default none.
    public var pacingStop: PacingStop?
    /// Where FEAT names no hash command, ask once (`OPTS HASH`, draft-bryan-ftpext-hash §3.3)
    /// whether the server has `HASH` anyway, when a file's digest is first wanted; default false.
    public var probesHash = false
    /// The proxy the control connection and every data connection go through (SOCKS5 or HTTP
    /// CONNECT; passive mode only); nil (the default) connects directly. Its password joins
    /// `secrets`.
    public var proxy: FTPProxy?

    /// Creates a configuration; defaults: port 21, anonymous login, peer policy, 30 s, UTF-8,
    /// no TLS (with TLS: certificate checked against the system CA store, up to TLS 1.3).
    public init(
        host: String, port: Int = 21, user: String = "anonymous", password: String = "anonymous@",
        passiveAddress: PassiveAddressPolicy = .peer, timeout: Double = 30, encoding: String? = nil,
        tls: FTPTLSMode = .none, certificateCheck: CertificateCheck = .system,
        tlsVersionLimit: TLSVersionLimit = .tls13
    ) {
        self.tls = tls
        self.certificateCheck = certificateCheck
        self.tlsVersionLimit = tlsVersionLimit
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.passiveAddress = passiveAddress
        self.timeout = timeout
        self.encoding = encoding
    }
}
