// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import Synchronization

/// One FTP control connection to one server, logged in: the commands ftpsync needs.
///
/// All calls block the calling thread (each wait is bounded by the configured timeout). The
/// session is `Sendable`: its state lives behind a lock, so calls from several threads run one
/// at a time (a call waits while another one, perhaps a whole transfer, holds the session).
/// The closures a call takes (`sink`, `source`, `progress`, `reserve`) and the `log` run while
/// the session is held: they must not call this session. A session is never shared between
/// devices. After a timeout, a lost connection or a protocol violation the control connection
/// is closed and later calls throw `FTPError.connectionClosed`; after a `.reply` error the
/// session stays usable.
public final class FTPSession: Sendable {
    /// What this session connects to and logs in with.
    public let configuration: FTPSessionConfiguration
    /// Masks this device's secrets (`configuration.secrets`) in server text: the banner, the
    /// logged replies, and every error a call throws.
    public let scrubber: SecretScrubber
    /// The connection's state and protocol logic, one call at a time.
    private let core: Mutex<FTPSessionCore>

    /// Creates an unconnected session.
    /// - Parameter log: receives every command sent (`> PASS ****` masked) and every reply
    ///   line received (`< 230 ...`), for `--verbose`.
    public init(configuration: FTPSessionConfiguration, log: (@Sendable (String) -> Void)? = nil) {
        self.configuration = configuration
        self.scrubber = SecretScrubber(configuration.secrets)
        self.core = Mutex(FTPSessionCore(configuration: configuration, log: log))
    }

    /// Runs `body` on the core, holding the session.
    private func locked<T: Sendable, E: Error>(_ body: (FTPSessionCore) throws(E) -> T) throws(E) -> T {
        try core.withLock { (core) throws(E) -> T in try body(core) }
    }

    // MARK: - What the session learnt

    /// The features from FEAT after login (empty when FEAT was refused, or did not end).
    public var features: FTPFeatures { locked { $0.features } }
    /// What the last `connect()` had to work around, one line each, for the device's report
    /// (a FEAT reply that did not end and was treated as absent).
    public var notes: [String] { locked { $0.notes } }
    /// True when FEAT did not end within its bounds and the features are treated as absent.
    public var featuresTreatedAsAbsent: Bool { locked { $0.featuresTreatedAsAbsent } }
    /// The server's greeting (220 reply, after any 120 delay replies); nil before `connect()`.
    public var banner: FTPReply? { locked { $0.banner } }
    /// Where passive data connections go: the numeric address of the control connection's
    /// peer, or through a proxy the device's address (`socks5`) or host name (`socks5h`,
    /// `http`); nil before `connect()`.
    public var peerHost: String? { locked { $0.peerHost } }
    /// How long the proxy step of the control connection took (`FTPSessionConfiguration.proxy`);
    /// nil without a proxy or before `connect()`.
    public var proxyHop: ProxyHop? { locked { $0.proxyHop } }
    /// The last passive-mode reply's endpoint, as the server named it (for `check`: a 227
    /// address that differs from `peerHost`).
    public var lastPassiveEndpoint: PassiveEndpoint? { locked { $0.lastPassiveEndpoint } }
    /// False once EPSV was refused or unusable: PASV is used for the rest of the session.
    public var usesEPSV: Bool { locked { $0.usesEPSV } }
    /// The numeric local address of the control connection (active mode listens there); nil
    /// before `connect()`.
    public var localHost: String? { locked { $0.localHost } }
    /// False once EPRT was refused: PORT is used for the rest of the session (active mode).
    public var usesEPRT: Bool { locked { $0.usesEPRT } }
    /// False when MLSD is not offered or was refused: LIST is used for the rest of the session.
    public var usesMLSD: Bool { locked { $0.usesMLSD } }
    /// The file-name codec for command arguments and listing names (UTF-8 until `connect()`
    /// reads the configured encoding).
    public var nameCodec: NameCodec { locked { $0.nameCodec } }
    /// What the TLS handshake of the control connection negotiated; nil without TLS.
    public var tlsDetails: TLSDetails? { locked { $0.tlsDetails } }
    /// The final reply of the last transfer that completed (226/250), e.g. Pure-FTPd's
    /// `226 Output truncated to 2000 matches` after a listing it cut short.
    public var lastCompletion: FTPReply? { locked { $0.lastCompletion } }
    /// True while the control connection is open.
    public var isConnected: Bool { locked { $0.isConnected } }
    /// Why listings go over the control connection (`STAT`, RFC 959 §4.1.3; see `listRaw`),
    /// or nil while they use data connections (a session that lists with STAT because an
    /// earlier one with the server had to takes its reason at its first listing).
    public var controlListingReason: String? { locked { $0.controlListingReason } }

    /// Why LIST is sent without `-a` though `configuration.listsHidden` asks for it (the server
    /// did not understand `-a`, in this session or an earlier one of this process, or
    /// `expectPlainList` said so), nil while `LIST -a` is sent.
    public var plainListReason: String? { locked { $0.plainListReason } }

    /// Sends plain LIST, never `LIST -a`, from now on: an earlier run found that the server
    /// does not understand `-a` (`reason`).
    public func expectPlainList(because reason: String) {
        locked { core in core.plainListReason = reason }
    }

    /// Why no NOOPs go on the control connection during transfers though
    /// `configuration.keepaliveSeconds` asks for them: the server answered one with an error or
    /// out of step (in this session or an earlier one of this process), or
    /// `expectNoKeepalive` said so; nil while they are sent.
    public var keepaliveOffReason: String? { locked { $0.keepaliveOffReason } }

    /// Sends no NOOP during transfers from now on: an earlier run found that the server
    /// misbehaves with them (`reason`).
    public func expectNoKeepalive(because reason: String) {
        locked { core in core.keepaliveOffReason = reason }
    }

    /// Why transfer commands are sent one at a time though `configuration.pipelining` asks
    /// for pipelining: the server lost or did not understand a pipelined one (in this session
    /// or an earlier one of this process), or `expectNoPipelining` said so; nil while they are
    /// pipelined.
    public var pipelineOffReason: String? { locked { $0.pipelineOffReason } }

    /// Sends transfer commands one at a time from now on: an earlier run found that the
    /// server loses or refuses pipelined ones (`reason`).
    public func expectNoPipelining(because reason: String) {
        locked { core in core.pipelineOffReason = reason }
    }

    /// Takes the server for one that blocks listing data connections (an earlier run saw it),
    /// as a hint, not a verdict: the next listing still tries a data connection, once. When it
    /// works, the hint is dropped; when it fails, that listing and every later one go over the
    /// control connection at once (`STAT`, see `listRaw`), without a second try.
    public func expectControlListing(because reason: String) {
        locked { core in core.controlListingHint = reason }
    }

    // MARK: - Commands

    /// Connects, reads the greeting, logs in and prepares the session (RFC 959 §5.4):
    /// 220 greeting (after any 120 replies), AUTH TLS first with `tls: .explicit` (RFC 4217 §4),
    /// USER, PASS unless USER got 230, PBSZ/PROT with TLS, FEAT (RFC 2389), `OPTS UTF8 ON`
    /// when FEAT lists UTF8 and no other encoding is configured (any reply accepted), TYPE I.
    /// A second call starts over.
    /// - Throws: `.invalidName` for an unknown encoding, `.connectFailed`, `.timedOut`,
    ///   `.reply` (e.g. 421 greeting, 530 login incorrect), `.tlsRefused`, `.tlsFailed`,
    ///   `.certificateUntrusted`, `.fingerprintMismatch`, `.connectionClosed`, `.protocolViolation`.
    ///   After an error the control connection is closed (with QUIT after a refusing reply).
    public func connect() throws(FTPError) { try locked { (core) throws(FTPError) in try core.connect() } }

    /// Sends SYST (RFC 959 §4.1.3). - Returns: the reply text, e.g. `UNIX Type: L8`.
    /// - Throws: `.reply` unless 215; connection errors.
    public func system() throws(FTPError) -> String { try locked { (core) throws(FTPError) in try core.system() } }

    /// Size of a file in bytes, by SIZE (RFC 3659 §4), in TYPE I.
    /// - Throws: `.reply` (550: no such file), `.protocolViolation` when 213 holds no number.
    public func size(_ path: String) throws(FTPError) -> UInt64 {
        try locked { (core) throws(FTPError) in try core.size(path) }
    }

    /// Modification time of a file, by MDTM (RFC 3659 §3), as an instant (the reply is UTC).
    /// - Throws: `.reply` (550: no such file), `.protocolViolation` when 213 holds no time.
    public func modificationTime(_ path: String) throws(FTPError) -> Date {
        try locked { (core) throws(FTPError) in try core.modificationTime(path) }
    }

    /// The modification times of several files (MDTM, RFC 3659 §3), in the order of `paths`:
    /// each a time, or the error of that file (550: no such file). Sent in pipelined batches
    /// once the session saw pipelined commands answered (`configuration.pipelining`), else one
    /// at a time.
    /// - Throws: connection errors (`.timedOut`, `.connectionClosed`, ...).
    public func modificationTimes(_ paths: [String]) throws(FTPError) -> [Result<Date, FTPError>] {
        try locked { (core) throws(FTPError) in try core.modificationTimes(paths) }
    }

    /// The sizes of several files (SIZE, RFC 3659 §4), in the order of `paths`: each a size, or
    /// the error of that file (550: no such file). Sent in pipelined batches once the session
    /// saw pipelined commands answered (`configuration.pipelining`), else one at a time.
    /// - Throws: connection errors (`.timedOut`, `.connectionClosed`, ...).
    public func sizes(_ paths: [String]) throws(FTPError) -> [Result<UInt64, FTPError>] {
        try locked { (core) throws(FTPError) in try core.sizes(paths) }
    }

    /// Sets a file's modification time (UTC, whole seconds): MFMT when FEAT offers it, else
    /// the two-argument `MDTM YYYYMMDDHHMMSS path` some servers accept.
    /// - Throws: `.reply` when the server refuses (then the time cannot be set on it).
    public func setModificationTime(_ path: String, _ date: Date) throws(FTPError) {
        try locked { (core) throws(FTPError) in try core.setModificationTime(path, date) }
    }

    /// Deletes a file (DELE, RFC 959 §4.1.3). - Throws: `.reply` (550: missing or no permission).
    public func delete(_ path: String) throws(FTPError) {
        try locked { (core) throws(FTPError) in try core.delete(path) }
    }

    /// Renames `from` to `to` (RNFR 350, then RNTO, RFC 959 §4.1.3).
    /// - Throws: `.reply` when either step is refused.
    public func rename(from: String, to: String) throws(FTPError) {
        try locked { (core) throws(FTPError) in try core.rename(from: from, to: to) }
    }

    /// Creates a folder (MKD, RFC 959 §4.1.3). - Throws: `.reply` (550: exists or no permission).
    public func makeDirectory(_ path: String) throws(FTPError) {
        try locked { (core) throws(FTPError) in try core.makeDirectory(path) }
    }

    /// Removes an empty folder (RMD, RFC 959 §4.1.3). - Throws: `.reply` when refused.
    public func removeDirectory(_ path: String) throws(FTPError) {
        try locked { (core) throws(FTPError) in try core.removeDirectory(path) }
    }

    /// Sends one command line as given (encoded with the name codec) and returns its reply
    /// whatever the code: for `check` and diagnostics. Do not start transfers with it. The reply
    /// is as received (a 227 must still parse): pass its text through `scrubber` before showing it.
    /// - Throws: only connection errors (`.timedOut`, `.connectionClosed`, `.protocolViolation`,
    ///   `.invalidName` for CR/LF/NUL).
    public func raw(_ command: String) throws(FTPError) -> FTPReply {
        try locked { (core) throws(FTPError) in try core.raw(command) }
    }

    /// Sends QUIT, waits briefly for its reply and closes the control connection. Never
    /// throws; safe to call more than once.
    public func quit() { locked { $0.quit() } }

    /// The server's digest of the whole file at `path`: `HASH` (draft-bryan-ftpext-hash §3.2)
    /// with the strongest algorithm offered, else the strongest of `XSHA256`, `XSHA1`, `XMD5`,
    /// `XCRC` (not for a path with a space).
    /// - Parameter size: the file's size in bytes as listed, when known: a `HASH` reply whose
    ///   range does not cover it is not taken.
    /// - Returns: nil when the server offers no way to hash this file.
    /// - Throws: `.reply` when the server refuses or answers without a digest of the algorithm
    ///   asked for (the session stays usable); `.timedOut`, `.connectionClosed`.
    public func serverHash(_ path: String, size: UInt64? = nil) throws(FTPError) -> ServerHash? {
        try locked { (core) throws(FTPError) in try core.serverHash(path, size: size) }
    }

    /// The server's digest of the bytes `range` of the file at `path` (a partial download's
    /// bytes, an upload's temporary so far): `XSHA256 path START END` (or the older command of
    /// the algorithm offered; not for a path with a space), else `RANG` and `HASH`
    /// (draft-bryan-ftpext-hash §3.4) when the server hashes ranges.
    /// - Returns: nil when the server offers no way to hash part of this file.
    /// - Throws: `.reply` when the server refuses (the session stays usable); `.timedOut`,
    ///   `.connectionClosed`.
    public func serverHash(_ path: String, range: Range<UInt64>) throws(FTPError) -> ServerHash? {
        try locked { (core) throws(FTPError) in try core.serverHash(path, range: range) }
    }

    /// The algorithm `serverHash` gives its digests in (the one this session uses, else the
    /// one it will choose from FEAT); nil when the server offers none as far as is known yet.
    /// For hashing bytes here as they stream, to compare with the server's digest after.
    public var expectedHashAlgorithm: ServerHashAlgorithm? { locked { $0.expectedHashAlgorithm } }

    /// The algorithm the server hashes files with, deciding how this session asks for digests
    /// first (probing for `HASH` where FEAT names no hash command when
    /// `FTPSessionConfiguration.probesHash`, `OPTS HASH` to choose the strongest): call it
    /// before a transfer whose digest is wanted, so the command can go out behind it
    /// (`TransferFollowUp.hashAfter`). Nil when the server offers none.
    /// - Throws: connection errors.
    public func fileHashAlgorithm() throws(FTPError) -> ServerHashAlgorithm? {
        try locked { (core) throws(FTPError) in try core.guarded { () throws(FTPError) in try core.decideHashChoice() }
        }
    }

    /// What probing for `HASH` found on a server whose FEAT names no hash command
    /// (`FTPSessionConfiguration.probesHash`): `HASH ALGORITHM`, or why there is none; nil until
    /// a probe was made. Kept by the caller for later sessions (`rememberHashProbe`).
    public var hashProbe: String? { locked { $0.hashProbe } }

    /// Takes what an earlier probe for `HASH` found (`hashProbe`) instead of probing again.
    public func rememberHashProbe(_ outcome: String) {
        locked { core in core.hashProbe = outcome }
    }

    // MARK: - Transfers

    /// Lists a folder and parses it: MLSD when offered (RFC 3659 §7), else LIST. The parse
    /// uses `context`; names are decoded by the parser (see `nameCodec` for legacy encodings).
    /// - Throws: as `listRaw`.
    public func list(_ path: String, context: ListingContext) throws(FTPError) -> ParsedListing {
        let raw = try listRaw(path)
        return ListingParser.parse(raw.bytes, format: raw.format, context: context)
    }

    /// Lists a folder and returns the data bytes: MLSD when offered; LIST when MLSD is not
    /// offered or is refused (500/501/502, or 550 saying the command is not understood),
    /// and LIST for the rest of the session after such a refusal. An empty `path` lists the
    /// current folder (the command is sent without an argument). When the listing's data
    /// connection cannot be used (refused, timed out, 425/426, broken before a byte) on two
    /// fresh data connections in a row (on one after `expectControlListing`), the folder is
    /// listed with `STAT <path>` over the control connection instead (RFC 959
    /// §4.1.3), and so is every later listing of this session and of later sessions with the
    /// server in this process (`controlListingReason`); a STAT reply over 256 MiB is cut
    /// there (`RawListing.truncation` says so), one over 512 MiB or not ended within ten
    /// times the timeout fails.
    /// - Parameter reserve: when given, is told the size in bytes of each chunk before it is
    ///   kept, and may throw to abandon the listing (a budget shared by several listings; the
    ///   error becomes `.protocolViolation`).
    /// - Throws: `.reply` (e.g. 550 no such folder), `.dataConnectionClosed`, `.timedOut`,
    ///   `.connectFailed` (data connection, when STAT gives no listing either),
    ///   `.protocolViolation` (over 256 MiB).
    public func listRaw(_ path: String, reserve: ((Int) throws -> Void)? = nil) throws(FTPError) -> RawListing {
        try locked { (core) throws(FTPError) in try core.listRaw(path, reserve: reserve) }
    }

    /// Downloads a file: `REST offset` (RFC 3659 §5) when `offset` > 0, then RETR; the data
    /// arrives in `sink` in chunks of up to 256 KiB, in order.
    /// - Returns: the number of bytes received (the file's size minus `offset` when complete).
    /// - Throws: `FTPError.reply` (550 no such file; a refused REST, e.g. 502, means the server
    ///   cannot resume: download from 0), `FTPError.dataConnectionClosed(bytesTransferred:reason:)`
    ///   when the data connection ended early or the final reply was 4xx (426, 451): resume from
    ///   `offset + bytesTransferred`; `.timedOut`; `.connectFailed`; or what `sink` throws (the
    ///   transfer is then abandoned and the session stays usable).
    /// Tells the session what follows the next transfer of a file (`retrieve`, `store`): a SIZE
    /// of the same file, and after a download the next file to download. Their commands go out
    /// as soon as the server is done with that transfer's data, pipelined, when the session
    /// pipelines (`configuration.pipelining`, see `pipelineOffReason`); the next call of `size`
    /// and `retrieve` for them then costs no round trip. Anything else asked meanwhile ends what
    /// was sent ahead first. The announcement is for the next transfer only.
    public func announce(_ followUp: TransferFollowUp) {
        locked { core in core.announced = followUp.isEmpty ? nil : followUp }
    }

    public func retrieve(
        _ path: String, from offset: UInt64 = 0, to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> UInt64 {
        try locked { core in try core.retrieve(path, from: offset, to: sink) }
    }

    /// Uploads a file: STOR (or APPE when `append`, RFC 959 §4.1.3), preceded by
    /// `REST offset` when `offset` > 0 (RFC 3659 §5: the server writes from that byte).
    /// `source` fills the buffer it gets and returns the number of bytes it wrote there;
    /// 0 means end of file.
    /// - Returns: the number of bytes sent.
    /// - Throws: `FTPError.reply` (553 not allowed, 502 APPE/REST not implemented, 552 no room),
    ///   `.dataConnectionClosed(bytesTransferred:reason:)` when the data connection broke or the
    ///   final reply was 4xx, `.timedOut`, `.connectFailed`, or what `source` throws.
    @discardableResult
    public func store(
        _ path: String, from source: (UnsafeMutableRawBufferPointer) throws -> Int, append: Bool = false,
        offset: UInt64 = 0
    ) throws -> UInt64 {
        try locked { core in try core.store(path, from: source, append: append, offset: offset) }
    }

    /// Uploads the open local file `file` from its byte `fileOffset`, at most `length` bytes (all
    /// to its end when nil; a file that grew meanwhile is not sent beyond): STOR (or APPE
    /// when `append`, RFC 959 §4.1.3), preceded by `REST offset` when `offset` > 0 (RFC 3659 §5).
    /// The file is read with pread(2) in steps and written to the data connection (encrypted
    /// first over TLS, RFC 4217); over a plain one the send buffer follows the device's rate
    /// (`FTPSessionCore.store(_:file:fileOffset:...)`). `progress` gets the bytes
    /// sent after each step and may throw to abandon the transfer (the session stays usable).
    /// The descriptor is neither moved nor closed.
    /// - Returns: the number of bytes sent.
    /// - Throws: as `store(_:from:append:offset:)`; a read error of the local file is
    ///   `LocalReadError`.
    @discardableResult
    public func store(
        _ path: String, file: Int32, fileOffset: UInt64, length: UInt64? = nil, append: Bool = false,
        offset: UInt64 = 0, progress: (Int) throws -> Void
    ) throws -> UInt64 {
        try locked { core in
            try core.store(
                path, file: file, fileOffset: fileOffset, length: length, append: append, offset: offset,
                progress: progress)
        }
    }
}
