// swift-tools-version: 6.0
// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors
// ftpsync: keeps file trees in sync between one machine and the FTP servers of many devices.
// The targets and what each may import are described in docs/architecture.md.
import PackageDescription

let package = Package(
    name: "ftpsync",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ftpsync", targets: ["ftpsync"]),
        .library(
            name: "FTPSyncKit",
            targets: ["FTPListing", "FTPClient", "SyncCore", "SyncEngine", "SyncConfig", "SyncRunner"]),
    ],
    dependencies: [
        // The command line (FTPSyncCLI). Resolved from ../shared/mirrors on machines without GitHub
        // (scripts/use-mirrors.sh points SwiftPM there); Package.resolved pins the version.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // C libraries from Debian, reached through system-library targets.
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),

        // Pure: listings to entries.
        .target(name: "FTPListing"),
        // I/O: control and data connections.
        .target(name: "FTPClient", dependencies: ["FTPListing", "COpenSSL"]),
        // Pure: snapshots, records, the planner.
        .target(name: "SyncCore"),
        // I/O: local scan and hashing.
        .target(name: "LocalTree", dependencies: ["SyncCore", "FTPListing", "CXXHash"]),
        // I/O: the state database and the run lock.
        .target(name: "SyncStore", dependencies: ["SyncCore", "CSQLite"]),
        // I/O: carries out a plan.
        .target(
            name: "SyncEngine",
            dependencies: ["SyncCore", "LocalTree", "SyncStore", "FTPClient", "FTPListing"]),
        // I/O: reads device.yaml.
        .target(name: "SyncConfig", dependencies: ["SyncCore", "CYAML"]),
        // I/O: a whole run (lock, state, device threads, events, cancellation); the device → session mapping.
        .target(
            name: "SyncRunner",
            dependencies: ["FTPClient", "SyncCore", "LocalTree", "SyncStore", "SyncEngine", "SyncConfig"]),
        // I/O: the commands and their output; `--version` from `git describe` (VersionPlugin).
        .target(
            name: "FTPSyncCLI",
            dependencies: [
                "FTPListing", "FTPClient", "SyncCore", "LocalTree", "SyncStore", "SyncEngine", "SyncConfig",
                "SyncRunner", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["VersionPlugin"]),
        // Runs scripts/version.sh before each build: the version `git describe` gives, as Swift.
        .plugin(name: "VersionPlugin", capability: .buildTool()),
        .executableTarget(name: "ftpsync", dependencies: ["FTPSyncCLI"]),
        // A small program using the library: list a device, plan a pull, print the plan.
        .executableTarget(
            name: "plan-pull-example",
            dependencies: ["FTPClient", "FTPListing", "SyncCore", "SyncEngine", "SyncConfig", "SyncRunner"],
            path: "Examples/PlanPull"),
        // The public runner in a few lines: pull every device of a configuration, with progress.
        .executableTarget(
            name: "sync-example", dependencies: ["SyncConfig", "SyncEngine", "SyncRunner"],
            path: "Examples/SyncExample"),

        .testTarget(
            name: "FTPListingTests", dependencies: ["FTPListing", "FTPClient"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FTPClientTests", dependencies: ["FTPClient", "FTPListing", "FTPTestSupport"],
            exclude: ["Data"]),
        // A pyftpdlib server on loopback for the unit tests of several targets.
        .target(name: "FTPTestSupport", path: "Tests/FTPTestSupport", exclude: ["ftp_server.py"]),
        .testTarget(name: "SyncCoreTests", dependencies: ["SyncCore"]),
        .testTarget(name: "LocalTreeTests", dependencies: ["LocalTree", "SyncCore"]),
        .testTarget(name: "SyncStoreTests", dependencies: ["SyncStore", "SyncCore"]),
        // An in-memory device with fault injection, for the engine's unit tests.
        .target(
            name: "RemoteTestSupport", dependencies: ["SyncEngine", "FTPClient", "FTPListing"],
            path: "Tests/RemoteTestSupport"),
        .testTarget(
            name: "SyncEngineTests",
            dependencies: [
                "SyncEngine", "SyncCore", "SyncStore", "FTPClient", "FTPListing", "LocalTree", "RemoteTestSupport",
            ]),
        .testTarget(name: "SyncConfigTests", dependencies: ["SyncConfig"]),
        .testTarget(
            name: "FTPSyncCLITests",
            dependencies: ["FTPSyncCLI", "SyncConfig", "SyncCore", "SyncRunner", "SyncStore", "LocalTree"]),
        .testTarget(
            name: "SyncRunnerTests",
            dependencies: [
                "SyncRunner", "SyncConfig", "SyncEngine", "SyncCore", "SyncStore", "FTPClient", "FTPTestSupport",
            ]),
        // Runs the built `ftpsync` binary against real FTP servers on loopback.
        .testTarget(name: "IntegrationTests", dependencies: [], exclude: ["Fixtures"]),
    ]
)
