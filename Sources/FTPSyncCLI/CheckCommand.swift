import FTPClient
import Foundation
import SyncConfig
import SyncRunner

/// `ftpsync check [CONFIG] [--device NAME]... [--json]`: connect to each device, log in and
/// report what the server offers, how fast it answers and, with TLS, what was negotiated.
struct CheckCommand {
    static let options: [OptionSpec] = [
        OptionSpec(
            names: ["--device"], key: "device", takesValue: true, valueName: "NAME",
            help: "only this device; repeatable"),
        OptionSpec(names: ["--json"], key: "json", takesValue: false, help: "print one JSON document on stdout"),
        OptionSpec(
            names: ["-v", "--verbose"], key: "verbose", takesValue: false,
            help: "log every FTP command and reply to stderr (PASS masked)"),
        FleetOptions.specs[0],
    ]

    static var help: String {
        Help.text(
            for: "check", options: options, usage: "ftpsync check [CONFIG] [--device NAME]... [--json] [-v]",
            summary: """
                Connect to each device, log in and report: the server's features (MLSD, EPSV, UTF8, MFMT,
                REST STREAM, HASH, AUTH TLS), the round-trip time of one command, whether the address in
                a PASV (227) reply differs from the server's own address (NAT), and with TLS the version,
                cipher and the certificate's SHA-256 fingerprint (to pin with `fingerprint:`).
                Devices are checked in parallel (--jobs N, default 4). Nothing is transferred or changed.
                Exit 0 when every device passed, 1 when one failed,
                2 for a usage or configuration error.
                """,
            example: "ftpsync check device.yaml --device front-camera")
    }

    let arguments: ParsedArguments
    let console: Console

    init(arguments: [String], console: Console) throws {
        self.arguments = try ArgumentParser.parseWithConfig(arguments, specs: CheckCommand.options, command: "check")
        self.console = console
    }

    func run() throws -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(arguments.positionals.first, environment: environment)
        let configuration: Configuration
        do {
            // As pull does: `~/.netrc`, the permission warning, `password_env`.
            configuration = try loadConfiguration(path: configPath, environment: environment, console: console)
        } catch {
            console.error(error.description)
            return .usage
        }
        let devices: [DeviceConfig]
        do {
            devices = try configuration.selectDevices(named: arguments.all("device"))
        } catch {
            throw UsageError(error.description)
        }
        warnAboutInsecureDevices(devices, console: console)
        let verbose = arguments.has("verbose")
        let console = self.console
        let reports = DeviceRunner.runAll(devices, limit: try FleetOptions.jobs(arguments)) { device in
            let name = device.name
            var log: (@Sendable (String) -> Void)?
            if verbose { log = { line in console.error(name + ": " + line) } }
            return CheckCommand.check(device, log: log)
        }
        if arguments.has("json") {
            console.json(jsonText(CheckDocument(devices: reports)))
        } else {
            for report in reports { console.out(report.text) }
        }
        return reports.allSatisfy { $0.ok } ? .success : .partialFailure
    }

    /// Checks one device on the calling thread; never throws (a failure is in the report).
    static func check(_ device: DeviceConfig, log: (@Sendable (String) -> Void)?) -> CheckReport {
        var report = CheckReport(name: device.name, host: device.host, port: device.port, tls: device.tls.rawValue)
        if let problem = device.problem {
            report.error = "configuration: " + problem
            return report
        }
        let session = FTPSession(configuration: device.sessionConfiguration, log: log)
        defer { session.quit() }
        let started = Date()
        do {
            try session.connect()
            report.loginSeconds = rounded(Date().timeIntervalSince(started))
            report.banner = session.banner?.text  // secrets already masked by the session
            let system = session.scrubber.scrub(try session.raw("SYST"))
            report.system = system.code == 215 ? system.text : nil
            let features = session.features
            report.features = CheckFeatures(
                mlsd: features.mlsd, epsv: features.epsv, utf8: features.utf8, mfmt: features.mfmt,
                restStream: features.restStream, hash: features.hash, authTLS: features.authTLS)
            report.tlsVersion = session.tlsDetails?.version
            report.tlsCipher = session.tlsDetails?.cipher
            report.certificateFingerprint = session.tlsDetails?.fingerprint
            report.certificateSubject = session.tlsDetails?.subject
            report.certificateVerification = session.tlsDetails?.verification
            let before = Date()
            _ = try session.raw("NOOP")
            report.roundTripMilliseconds = rounded(Date().timeIntervalSince(before) * 1000)
            let pasv = try session.raw("PASV")
            if pasv.code == 227, case .address(let host, _)? = try? PassiveEndpoint.parse(pasv) {
                report.passiveAddress = host
                report.passiveAddressDiffers = host != session.peerHost && host != "0.0.0.0"
            }
            report.ok = true
        } catch {
            report.error = "\(device.explainingLogin(error))"
        }
        return report
    }

    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

/// The JSON document of `check --json`.
struct CheckDocument: Encodable {
    var command = "check"
    var devices: [CheckReport]
}

/// What `check` found out about one device's server.
struct CheckFeatures: Encodable, Equatable {
    var mlsd, epsv, utf8, mfmt, restStream, hash, authTLS: Bool
}

/// One device's result of `check`.
struct CheckReport: Encodable {
    var name: String
    var host: String
    var port: Int
    var tls: String
    var ok = false
    var error: String?
    var banner: String?
    /// The SYST reply's text (e.g. `UNIX Type: L8`), nil when refused.
    var system: String?
    /// Seconds from connect to logged in (TLS handshake included).
    var loginSeconds: Double?
    /// Milliseconds for one NOOP and its reply.
    var roundTripMilliseconds: Double?
    var features: CheckFeatures?
    /// The address in the PASV (227) reply, and whether it differs from the server's address.
    var passiveAddress: String?
    var passiveAddressDiffers: Bool?
    var tlsVersion: String?
    var tlsCipher: String?
    var certificateFingerprint: String?
    var certificateSubject: String?
    var certificateVerification: String?

    /// The text report: one header line, then indented facts.
    var text: String {
        guard ok else { return "\(name): FAILED — \(printable(error ?? "unknown error"))" }
        var lines = ["\(name): ok (\(host):\(port), tls: \(tls))"]
        if let banner { lines.append("  banner:        \(printable(banner))") }
        if let system { lines.append("  system:        \(printable(system))") }
        if let features {
            let named: [(String, Bool)] = [
                ("MLSD", features.mlsd), ("EPSV", features.epsv), ("UTF8", features.utf8), ("MFMT", features.mfmt),
                ("REST STREAM", features.restStream), ("HASH", features.hash), ("AUTH TLS", features.authTLS),
            ]
            lines.append("  features:      " + named.map { "\($0.0) \($0.1 ? "yes" : "no")" }.joined(separator: ", "))
        }
        if let loginSeconds { lines.append("  login:         \(loginSeconds) s") }
        if let roundTripMilliseconds { lines.append("  round trip:    \(roundTripMilliseconds) ms") }
        if let passiveAddress, let passiveAddressDiffers {
            lines.append(
                "  PASV address:  \(passiveAddress)"
                    + (passiveAddressDiffers
                        ? " DIFFERS from the server's address (NAT?): keep `passive_address: peer`"
                        : " (same as the server)"))
        }
        if let tlsVersion {
            lines.append("  TLS:           \(tlsVersion), \(tlsCipher ?? "")")
            lines.append("  certificate:   \(certificateFingerprint ?? "") \(certificateSubject ?? "")")
            lines.append("  verified by:   \(certificateVerification ?? "")")
        }
        return lines.joined(separator: "\n")
    }
}
