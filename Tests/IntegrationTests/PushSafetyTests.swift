import Foundation
import Testing

/// Issue 13 items 4, 6 and 7 (push side): lost state, a kill right after RNTO, slow devices.
/// Addresses 127.0.3.1–127.0.3.10.
@Suite(.serialized) struct PushSafetyTests {
    /// Item 4: with the state deleted, a device file that differs from the local one is a
    /// conflict, never overwritten; the run exits 1 and names the reason.
    @Test func lostStateIsNoPermissionToOverwrite() throws {
        let work = try makeTemporaryFolder("push-lost-state")
        let served = work + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mirror = work + "/mirror"
        try writeFile(mirror + "/cam/notes.txt", Array("local version\n".utf8), modified: Push.minute(daysAgo: 3))
        try writeFile(mirror + "/cam/same.txt", Array("same on both\n".utf8), modified: Push.minute(daysAgo: 3))
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.3.1")
        defer { server.stop() }
        let configPath = try Push.config(server, local: mirror, at: work)
        let first = try ftpsync(["push", configPath, "--json"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        // The state is lost; meanwhile someone changes the device's copy.
        for suffix in ["", "-wal", "-shm"] { unlink(mirror + "/.ftpsync/state.sqlite" + suffix) }
        let theirs = Array("edited on the device, longer than before\n".utf8)
        try writeFile(served + "/notes.txt", theirs, modified: Push.minute(daysAgo: 1))

        let second = try ftpsync(["push", configPath, "--json"])
        #expect(second.status == 1, "\(second.stdout)\(second.stderr)")
        #expect(Push.bytes(served + "/notes.txt") == theirs, "the device's file must be intact")
        let actions = Push.actions(second.stdout)
        #expect(actions.map(\.kind) == ["conflict"], "\(second.stdout)")
        #expect(actions.first?.path == "notes.txt")
        #expect(second.stdout.contains("not overwritten"), "\(second.stdout)")
        #expect(server.count("STOR") == 2, "only the first run uploads")
    }
}
