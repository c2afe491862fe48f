// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncConfig

/// Examples/kubernetes and Examples/systemd/ftpsync@.service run `--shard K/N` as the
/// schedulers need it: N the same everywhere, a local folder per shard, the passwords from a
/// Secret, one metrics file per shard on a volume. Read with the configuration's own YAML reader.
struct ShardExampleTests {
    /// The repository's root, three folders above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func everyManifestHasKindAndName() throws {
        let manifests = try kubernetesManifests()
        #expect(manifests.count >= 5)
        for manifest in manifests {
            #expect(manifest.node["apiVersion"]?.scalarText != nil, "\(manifest.file): no apiVersion")
            #expect(manifest.kind != nil && manifest.name != nil, "\(manifest.file): no kind or metadata.name")
        }
    }

    @Test func cronJobRunsOneIndexedPodPerShard() throws {
        let manifests = try kubernetesManifests()
        let cronJob = try #require(manifests.first { $0.kind == "CronJob" }, "no CronJob")
        #expect(cronJob.node["apiVersion"]?.scalarText == "batch/v1")
        #expect(cronJob.node["spec", "concurrencyPolicy"]?.scalarText == "Forbid")
        let job = try #require(cronJob.node["spec", "jobTemplate", "spec"])
        #expect(job["completionMode"]?.scalarText == "Indexed")
        let pod = try #require(job["template", "spec"])
        let container = try #require(pod["containers"]?.items.first)
        let args = container["args"]?.items.compactMap(\.scalarText) ?? []

        // N of `--shard $(JOB_COMPLETION_INDEX)/N` is the Job's completions and parallelism.
        let match = try #require(
            args.joined(separator: " ").firstMatch(of: /--shard[ =]\$\(JOB_COMPLETION_INDEX\)\/([0-9]+)(?: |$)/),
            "args lack --shard $(JOB_COMPLETION_INDEX)/N: \(args)")
        let count = String(match.output.1)
        #expect(job["completions"]?.scalarText == count)
        #expect(job["parallelism"]?.scalarText == count)
        #expect(job["backoffLimit"]?.scalarText.flatMap { Int($0) } != nil)

        // podFailurePolicy takes restartPolicy Never and names the container that runs ftpsync.
        #expect(pod["restartPolicy"]?.scalarText == "Never")
        for rule in job["podFailurePolicy", "rules"]?.items ?? [] {
            guard let codes = rule["onExitCodes"] else { continue }
            #expect(codes["containerName"]?.scalarText == container["name"]?.scalarText)
        }

        // The passwords come from a Secret of the example.
        let secrets = Set(manifests.filter { $0.kind == "Secret" }.compactMap(\.name))
        let referenced =
            (container["envFrom"]?.items.compactMap { $0["secretRef", "name"]?.scalarText } ?? [])
            + (container["env"]?.items.compactMap { $0["valueFrom", "secretKeyRef", "name"]?.scalarText } ?? [])
        #expect(!referenced.isEmpty && referenced.allSatisfy(secrets.contains), "secrets \(referenced) of \(secrets)")

        // The configuration comes from a ConfigMap of the example, at the path pull is given.
        let configPath = try #require(args.dropFirst().first)
        let configMount = try #require(mount(holding: configPath, in: container), "\(configPath) is on no volume")
        let configMap = try #require(volume(configMount, in: pod)?["configMap", "name"]?.scalarText)
        let fileName = URL(fileURLWithPath: configPath).lastPathComponent
        #expect(
            manifests.contains { $0.kind == "ConfigMap" && $0.name == configMap && $0.node["data", fileName] != nil })

        // Each shard's local tree: a claim of the example, one folder per index.
        let claims = Set(manifests.filter { $0.kind == "PersistentVolumeClaim" }.compactMap(\.name))
        let shardMount = try #require(
            container["volumeMounts"]?.items.first {
                $0["subPathExpr"]?.scalarText?.contains("$(JOB_COMPLETION_INDEX)") == true
            }, "no volumeMount with subPathExpr holding $(JOB_COMPLETION_INDEX)")
        let shardClaim = volume(shardMount, in: pod)?["persistentVolumeClaim", "claimName"]?.scalarText
        #expect(shardClaim.map(claims.contains) == true, "the shard's folder is on no claim of the example")

        // One metrics file per shard, on a volume written by the pod (a claim or a host folder).
        let metricsFile = try #require(value(of: "--metrics-file", in: args), "no --metrics-file")
        #expect(metricsFile.contains("$(JOB_COMPLETION_INDEX)") && metricsFile.hasSuffix(".prom"))
        let metricsMount = try #require(mount(holding: metricsFile, in: container), "\(metricsFile) is on no volume")
        #expect(metricsMount["readOnly"]?.scalarText != "true")
        let metricsVolume = volume(metricsMount, in: pod)
        let metricsClaim = metricsVolume?["persistentVolumeClaim", "claimName"]?.scalarText
        #expect(metricsClaim.map(claims.contains) == true || metricsVolume?["hostPath"] != nil)
    }

    /// The ConfigMap's fleet.yaml loads, its `local` is where each pod mounts its shard's folder,
    /// and the Secret sets every variable its devices' `password_env` name.
    @Test func configMapFleetUsesTheShardFolderAndTheSecret() throws {
        let manifests = try kubernetesManifests()
        let configMap = try #require(manifests.first { $0.kind == "ConfigMap" })
        let text = try #require(configMap.node["data", "fleet.yaml"]?.scalarText)
        let secret = try #require(manifests.first { $0.kind == "Secret" })
        var environment: [String: String] = [:]
        for pair in secret.node["stringData"]?.pairs ?? [] {
            if let key = pair.key.scalarText { environment[key] = pair.value.scalarText }
        }
        let configuration = try ConfigLoader.parse(
            text: text, path: "/etc/ftpsync/fleet.yaml", environment: environment)
        #expect(configuration.devices.count > 4)
        for device in configuration.devices {
            #expect(device.problem == nil, "\(device.name): \(device.problem ?? "")")
            #expect(device.password != nil, "\(device.name) has no password from the Secret")
        }
        let cronJob = try #require(manifests.first { $0.kind == "CronJob" })
        let pod = cronJob.node["spec", "jobTemplate", "spec", "template", "spec"]
        let mounts = pod?["containers"]?.items.first?["volumeMounts"]?.items ?? []
        let shardMount = mounts.first { $0["subPathExpr"] != nil }
        #expect(shardMount?["mountPath"]?.scalarText == configuration.localRoot)
    }

    /// ftpsync@.service: the instance is the shard's index, N one variable, a folder per instance.
    @Test func systemdTemplateShardsByInstance() throws {
        let unit = try String(contentsOfFile: Self.root + "/Examples/systemd/ftpsync@.service", encoding: .utf8)
        let exec = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        #expect(exec.contains("--shard %i/${FTPSYNC_SHARDS}"))
        #expect(exec.contains("shard-%i/"), "each instance needs its own configuration path, thus local tree")
        #expect(exec.contains("--metrics-file") && exec.contains("-%i.prom"))
        #expect(unit.contains(/\nEnvironment=FTPSYNC_SHARDS=[1-9][0-9]*\n/))
        #expect(unit.contains("ReadWritePaths=/srv/ftpsync/shard-%i"))
        let timer = try String(contentsOfFile: Self.root + "/Examples/systemd/ftpsync@.timer", encoding: .utf8)
        #expect(timer.contains("WantedBy=timers.target"))
    }

    /// What ftpsync@.service relies on: a relative `local` starts at the folder of the path the
    /// configuration is read by, a link there not followed, so one file serves every instance.
    @Test func relativeLocalStartsBesideALinkToTheConfiguration() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("shard-link-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/etc", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/shard-1", withIntermediateDirectories: true)
        let text = "local: mirror\ndevices:\n  - name: cam\n    host: 192.0.2.1\n"
        try text.write(toFile: base + "/etc/fleet.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: base + "/shard-1/fleet.yaml", withDestinationPath: base + "/etc/fleet.yaml")
        let configuration = try ConfigLoader.load(path: base + "/shard-1/fleet.yaml", environment: [:])
        #expect(configuration.localRoot == base + "/shard-1/mirror")
    }

    // MARK: - Reading the manifests

    /// Every document of every `*.yaml` file in Examples/kubernetes, in file and document order.
    private func kubernetesManifests() throws -> [Manifest] {
        let folder = Self.root + "/Examples/kubernetes"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }
            .sorted()
        return try files.flatMap { file in
            try documents(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file)))).map {
                Manifest(file: file, node: $0)
            }
        }
    }

    /// The documents of a YAML stream (`---` between them), each composed as the configuration's are.
    private func documents(_ bytes: [UInt8]) throws -> [YAMLNode] {
        var nodes: [YAMLNode] = []
        var current: [YAMLEvent] = []
        for event in try parseYAMLEvents(bytes) {
            current.append(event)
            if case .documentEnd = event {
                if let node = try composeYAMLDocument(current) { nodes.append(node) }
                current = []
            }
        }
        return nodes
    }

    /// The value after `option` in `args` (`--option VALUE` or `--option=VALUE`).
    private func value(of option: String, in args: [String]) -> String? {
        for (index, arg) in args.enumerated() {
            if arg == option, index + 1 < args.count { return args[index + 1] }
            if arg.hasPrefix(option + "=") { return String(arg.dropFirst(option.count + 1)) }
        }
        return nil
    }

    /// The container's volumeMount whose mountPath holds `path` (the deepest one).
    private func mount(holding path: String, in container: YAMLNode) -> YAMLNode? {
        let mounts = container["volumeMounts"]?.items ?? []
        return
            mounts
            .filter { mount in mount["mountPath"]?.scalarText.map { path.hasPrefix($0 + "/") } == true }
            .max { ($0["mountPath"]?.scalarText?.count ?? 0) < ($1["mountPath"]?.scalarText?.count ?? 0) }
    }

    /// The pod's volume that `mount` names.
    private func volume(_ mount: YAMLNode, in pod: YAMLNode) -> YAMLNode? {
        pod["volumes"]?.items.first { $0["name"]?.scalarText == mount["name"]?.scalarText }
    }
}

/// One document of a file of Examples/kubernetes.
private struct Manifest {
    /// The file's name.
    let file: String
    /// The document's root.
    let node: YAMLNode
    /// Its `kind`.
    var kind: String? { node["kind"]?.scalarText }
    /// Its `metadata.name`.
    var name: String? { node["metadata", "name"]?.scalarText }
}

extension YAMLNode {
    /// The value under `keys`, one mapping after the other; nil where one is missing.
    fileprivate subscript(_ keys: String...) -> YAMLNode? {
        var node: YAMLNode? = self
        for key in keys { node = node?.pairs.first { $0.key.scalarText == key }?.value }
        return node
    }

    /// A mapping's pairs; none for a scalar or a list.
    fileprivate var pairs: [Pair] {
        if case .mapping(let pairs) = content { return pairs }
        return []
    }

    /// A list's items; none for a scalar or a mapping.
    fileprivate var items: [YAMLNode] {
        if case .sequence(let items) = content { return items }
        return []
    }
}
