import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh temporary folder for one test, removed on deinit.
final class TempFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/syncstore-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

struct Boom: Error, Equatable {}
