import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call while reading a file: the `errno` it left.
struct FileReadError: Error {
    let code: Int32

    /// The system's text for the error, e.g. "No such file or directory".
    var reason: String { String(cString: strerror(code)) }
}

/// The whole content of the file at `path`.
/// - Parameter limit: the most bytes read; a longer file throws `EFBIG`.
/// - Throws: `FileReadError` with `errno` when the file cannot be opened or read
///   (a folder gives EISDIR).
func readFile(atPath path: String, limit: Int = Int.max) throws(FileReadError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileReadError(code: errno) }
    defer { close(descriptor) }
    var content: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { return content }
        if count < 0 {
            if errno == EINTR { continue }
            throw FileReadError(code: errno)
        }
        content.append(contentsOf: chunk[..<count])
        if content.count > limit { throw FileReadError(code: EFBIG) }
    }
}
