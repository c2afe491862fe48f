// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import FTPClient
import Foundation
import SyncConfig
import SyncEngine
import SyncRunner

/// `ftpsync check [CONFIG] [--device NAME]... [--json]`: connect to each device, log in and
/// report what the server offers, how fast it answers and, with TLS, what was negotiated.
struct CheckCommand: FTPSyncSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "connect and log in to each device, report what its server supports and its TLS details",
        usage: "ftpsync check [CONFIG] [--device NAME]... [--shard K/N] [--json] [-v]",
        discussion: """
            Connect to each device, log in and report: the server's features (MLSD, EPSV, UTF8, MFMT,
            REST STREAM, HASH, AUTH TLS), how it hashes files (the command and algorithm pull, push and
            verify use), the round-trip time of one command, whether the address in
            a PASV (227) reply differs from the server's own address (NAT), and with TLS the version,
            cipher and the certificate's SHA-256 fingerprint (to pin with `fingerprint:`).
            Devices are checked in parallel (--jobs N, default 4). Nothing is transferred or changed.
            Exit 0 when every device passed, 1 when one failed,
            2 for a usage or configuration error.
            """)
    static let example = "ftpsync check device.yaml --device front-camera"

    @OptionGroup var configFile: ConfigArgument
    @OptionGroup var selection: DeviceSelection
    @OptionGroup var report: ReportOptions
    @OptionGroup var jobsOption: JobsOption

    func execute(console: Console) throws -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(configFile.config, environment: environment)
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
            devices = try configuration.selectDevices(named: selection.names, shard: selection.shard)
        } catch {
            throw UsageError("\(error)")
        }
        warnAboutInsecureDevices(devices, console: console)
        let verbose = report.verbose
        let reports = DeviceRunner.runAll(devices, limit: jobsOption.jobs) { device in
            let name = device.name
            var log: (@Sendable (String) -> Void)?
            if verbose { log = { line in console.error(name + ": " + line) } }
            return CheckCommand.check(device, log: log)
        }
        if report.json {
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
        let proxy = device.ftpProxy
        if let proxy { report.proxy = CheckProxy(url: proxy.description) }
        do {
            try session.connect()
            report.loginSeconds = rounded(Date().timeIntervalSince(started))
            if let hop = session.proxyHop {
                report.proxy = CheckProxy(
                    url: hop.proxy, target: hop.target, connectMilliseconds: rounded(hop.proxySeconds * 1000),
                    throughMilliseconds: rounded(hop.throughSeconds * 1000))
            }
            report.banner = session.banner?.text  // secrets already masked by the session
            let system = session.scrubber.scrub(try session.raw("SYST"))
            report.system = system.code == 215 ? system.text : nil
            let features = session.features
            report.features = CheckFeatures(
                mlsd: features.mlsd, epsv: features.epsv, utf8: features.utf8, mfmt: features.mfmt,
                restStream: features.restStream, hash: features.hash, authTLS: features.authTLS)
            report.hash = try hashReport(session, verify: device.verify.rawValue)
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
                // Through a proxy that resolves the device's name, there is no address to compare.
                let peerIsAddress = proxy.map { $0.kind == .socks5 } ?? true
                report.passiveAddressDiffers =
                    peerIsAddress ? host != session.peerHost && host != "0.0.0.0" : nil
            }
            // Through a proxy, a listing tries a data connection (proxies often allow the FTP
            // port only): a device whose transfers would all fail is not ok.
            let dataFailure = proxy == nil ? nil : proxiedDataFailure(session, remote: device.remote)
            report.proxy?.dataConnections = dataFailure ?? "ok"
            if let dataFailure {
                report.error =
                    "logged in through the proxy, but every transfer would fail: \(dataFailure); the proxy must "
                    + "allow connections to the server's passive data ports"
            } else if device.verify == .required, report.hash?.command == nil {
                // A device every run would fail: `verify: required` and no hash to be had.
                report.error = EngineError.noServerHash.description
            } else {
                report.ok = true
            }
        } catch {
            report.error = "\(device.explainingLogin(error))"
        }
        return report
    }

    /// Why a listing of `remote` could not use a data connection through the proxy (it went
    /// over the control connection instead, or failed at the proxy); nil when one got through,
    /// or when the listing failed for another reason (a missing folder is not the proxy's).
    static func proxiedDataFailure(_ session: FTPSession, remote: String) -> String? {
        do {
            _ = try session.listRaw(remote)
            return session.controlListingReason
        } catch .proxyFailed(let failure) {
            return failure.description
        } catch {
            return session.controlListingReason
        }
    }

    /// How `session`'s server hashes files: `OPTS HASH` is tried first where FEAT names no hash
    /// command and the device's `verify` is not `off` (as a run does).
    /// - Throws: `FTPError` for connection errors of the probe.
    static func hashReport(_ session: FTPSession, verify: String) throws -> CheckHash {
        let algorithm = try session.fileHashAlgorithm()
        let features = session.features
        var command: String?
        if let algorithm {
            command = features.hashAlgorithms.contains(algorithm) ? "HASH" : algorithm.legacyCommand
        }
        return CheckHash(
            command: command, algorithm: algorithm?.rawValue,
            hashAlgorithms: features.hashAlgorithms.map(\.rawValue),
            legacyCommands: features.legacyHashAlgorithms.map(\.legacyCommand),
            probed: session.hashProbe?.hasPrefix("HASH ") == true, verify: verify)
    }

    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
