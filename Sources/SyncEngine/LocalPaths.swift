import Foundation
import SyncCore

/// Where things live on the local side for one device (CONTRACT.md, "Layout on disk").
public struct LocalPaths: Sendable {
    /// The local tree's root (`local` in the config): holds `.ftpsync/`.
    public var treeRoot: String
    /// The device's own folder, `<treeRoot>/<device.local>`.
    public var deviceRoot: String
    /// The device's name, used for its folders under `.ftpsync/`.
    public var device: String

    public init(treeRoot: String, deviceRoot: String, device: String) {
        self.treeRoot = treeRoot
        self.deviceRoot = deviceRoot
        self.device = device
    }

    /// `<treeRoot>/.ftpsync`: ftpsync's own files, never synced.
    public var stateFolder: String { treeRoot + "/.ftpsync" }

    /// The final place of `path`.
    public func file(_ path: RelativePath) -> String {
        path.isRoot ? deviceRoot : deviceRoot + "/" + path.string
    }

    /// Where an unfinished download of `path` collects its bytes.
    public func partial(_ path: RelativePath) -> String {
        stateFolder + "/partial/" + device + "/" + path.string
    }

    /// Where a file deleted by a pull is kept: `.ftpsync/trash/<UTC time>/<device>/<path>`.
    public func trash(_ path: RelativePath, stamp: String) -> String {
        stateFolder + "/trash/" + stamp + "/" + device + "/" + path.string
    }

    /// `NAME.conflict-<UTC time>.EXT` beside `path`: where a pull keeps a local version it
    /// would otherwise overwrite.
    public func conflictCopy(_ path: RelativePath, stamp: String) -> String {
        let name = path.name
        let newName: String
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            newName = name[..<dot] + ".conflict-" + stamp + name[dot...]
        } else {
            newName = name + ".conflict-" + stamp
        }
        return file(path.parent.isRoot ? RelativePath.root : path.parent) + "/" + newName
    }
}

/// A UTC time stamp for file names: `20261129T120000Z`.
public func fileStamp(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ v: Int?) -> String { v.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
    return "\(c.year ?? 1970)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
}
