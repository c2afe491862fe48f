import Foundation

/// Work run on a thread of its own (blocking I/O on a thread we own), whose result the
/// caller collects later with `wait()`: e.g. the local scan and the state's records, read
/// while the remote listings are under way.
final class BackgroundWork<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Value, Error> = .failure(Unfinished())
    private let body: () throws -> Value

    /// Starts `body` at once on a new thread.
    init(_ body: @escaping () throws -> Value) {
        self.body = body
        let thread = Thread { [self] in
            result = Result { try self.body() }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits for the work to end and returns its value.
    /// - Throws: what the work threw.
    func wait() throws -> Value {
        done.wait()
        done.signal()  // a second wait returns at once
        return try result.get()
    }

    /// The result before the work set one (never seen by `wait()`).
    private struct Unfinished: Error, CustomStringConvertible {
        var description: String { "background work did not finish" }
    }
}
