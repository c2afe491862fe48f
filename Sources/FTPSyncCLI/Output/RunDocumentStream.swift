import Foundation
import SyncEngine

extension RunDocument {
    /// Reports encoded per call of the encoder: enough to make its cost per call vanish, few
    /// enough to keep one batch's text small (about 200 bytes a report).
    static let actionBatch = 512

    /// Writes the document through `write` in pieces, byte for byte what `jsonText(self)` gives,
    /// holding one device's fields and `actionBatch` of its reports at a time (they are read
    /// from the device's `ActionLog` as they go). Each piece is whole lines of JSON with every
    /// string in it whole (`OutputFilter.json` can take the pieces one by one).
    ///
    /// The pieces are the encoder's own output: the document without its devices, each device
    /// without its actions, each batch of actions; re-indented for their depth, and the empty
    /// arrays they hold (`[\n\n  ]`, the encoder's way) opened to take the streamed elements.
    func writeJSON(_ write: (String) -> Void) {
        let encoder = jsonEncoder()
        var shell = self
        shell.devices = []
        let skeleton = jsonText(shell, encoder: encoder)
        // Keys are sorted: `devices` follows `command`. Strings hold no raw line feed, so these
        // lines cannot be part of one.
        guard let slot = skeleton.range(of: "\n  \"devices\" : [\n\n  ]") else { return write(jsonText(self)) }
        write(String(skeleton[..<slot.lowerBound]) + "\n  \"devices\" : [\n")
        for (index, device) in devices.enumerated() {
            if index > 0 { write(",\n") }
            Self.writeJSON(device, indent: "    ", encoder: encoder, write)
        }
        write("\n  ]" + String(skeleton[slot.upperBound...]))
    }

    /// Writes `device` as the element of an array at `indent`, its actions in batches.
    private static func writeJSON(
        _ device: DeviceReport, indent: String, encoder: JSONEncoder, _ write: (String) -> Void
    ) {
        var shell = device
        shell.actions = ActionLog()
        let text = jsonText(shell, encoder: encoder).dropLast()
        // `actions` is the first key of a device.
        let head = "{\n  \"actions\" : [\n\n  ]"
        guard text.hasPrefix(head) else {
            return write(indented(jsonText(device, encoder: encoder).dropLast(), indent))
        }
        write(indent + "{\n" + indent + "  \"actions\" : [\n")
        var batch: [ActionReport] = []
        batch.reserveCapacity(actionBatch)
        var first = true
        func flush() {
            guard !batch.isEmpty else { return }
            // `[\n  {…},\n  {…}\n]\n`: the elements, one level deep.
            let elements = jsonText(batch, encoder: encoder).dropFirst(2).dropLast(3)
            write((first ? "" : ",\n") + indented(elements, indent + "  "))
            first = false
            batch.removeAll(keepingCapacity: true)
        }
        for action in device.actions {
            batch.append(action)
            if batch.count >= actionBatch { flush() }
        }
        flush()
        write("\n" + indent + "  ]" + indented(text.dropFirst(head.count), indent, first: false))
    }

    /// `text` with `indent` before each line (but the first, unless `first`) that is not empty:
    /// the encoder leaves the line inside an empty array or object empty at any depth.
    private static func indented(_ text: Substring, _ indent: String, first: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + text.utf8.count / 4)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { out += "\n" }
            if !line.isEmpty && (first || index > 0) { out += indent }
            out += line
        }
        return out
    }
}

/// Runs `body` with a writer that gathers its pieces and hands them to `sink` in chunks of
/// about `limit` bytes (UTF-8), never splitting a piece; the last chunk when `body` returns.
func writeInChunks(limit: Int = 1 << 16, to sink: @escaping (String) -> Void, _ body: ((String) -> Void) -> Void) {
    var pending = ""
    body { piece in
        pending += piece
        if pending.utf8.count >= limit {
            sink(pending)
            pending = ""
        }
    }
    if !pending.isEmpty { sink(pending) }
}
