// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// The commands sent ahead behind a download (`TransferFollowUp`): SIZE of the downloaded file
/// and the next download's EPSV and RETR, written as soon as the data ended and answered after
/// the download's final reply. A prefetched download waits with its data connection made until
/// `retrieve` asks for it; any other command first ends it (`settlePrefetch`).
extension FTPSessionCore {
    /// The next download sent ahead: its path, and its data connection once 229 arrived.
    struct Prefetch {
        var path: String
        var data: SocketTransport
    }

    /// What `sendFollowUps` sent, for `readFollowUps`.
    struct SentFollowUps {
        /// The file SIZE was asked of, or nil.
        var sizeOf: String?
        /// The file RETR was sent for, or nil.
        var next: String?
        /// The file whose time was set, and the command line as shown, or nil.
        var timeOf: (path: String, shown: String)?
        /// The file whose digest was asked, how, and the bytes the transfer moved, or nil.
        var hashOf: (path: String, choice: HashChoice, shown: String, moved: UInt64)?
    }

    /// Sends the follow-ups announced for the download of `path` (once its data ended, after
    /// `moved` bytes), when the session pipelines, no NOOP of the transfer waits for its reply
    /// and the download moved what it should (`TransferFollowUp.expectedBytes`).
    /// - Returns: what was sent; nil when nothing was.
    func sendFollowUps(_ followUp: TransferFollowUp?, after path: String, moved: UInt64) -> SentFollowUps? {
        guard var followUp, !followUp.isEmpty, pipelines, let control,
            (transferKeepalive?.sent ?? 0) == 0, followUp.expectedBytes.map({ $0 == moved }) ?? true
        else { return nil }
        if followUp.next != nil, followUp.nextStillWanted?() == false { followUp.next = nil }
        guard !followUp.isEmpty else { return nil }
        var lines: [(command: [UInt8], shown: String)] = []
        var sent = SentFollowUps()
        do {
            if followUp.sizeAfter {
                lines.append((Array("SIZE ".utf8) + (try nameCodec.encode(path)), "SIZE \(path)"))
                sent.sizeOf = path
            }
            if let date = followUp.setTime {
                let (verb, stamp) = (features.mfmt ? "MFMT" : "MDTM", FTPTime.format(date))
                let shown = "\(verb) \(stamp) \(path)"
                lines.append((Array("\(verb) \(stamp) ".utf8) + (try nameCodec.encode(path)), shown))
                sent.timeOf = (path, shown)
            }
            if followUp.hashAfter, let (verb, choice) = hashCommand(for: path) {
                lines.append((Array("\(verb) ".utf8) + (try nameCodec.encode(path)), "\(verb) \(path)"))
                sent.hashOf = (path, choice, "\(verb) \(path)", moved)
            }
            if let next = followUp.next {
                let encoded = try nameCodec.encode(next)
                lines += [(Array("EPSV".utf8), "EPSV"), (Array("RETR ".utf8) + encoded, "RETR \(next)")]
                sent.next = next
            }
            try control.sendLines(lines)
        } catch {
            // A name the codec cannot encode, or a write that failed: nothing (more) ahead.
            if case .invalidName = error { return nil }
            control.close()
            self.control = nil
            return nil
        }
        return sent
    }

    /// Reads the replies to the follow-ups `sent` after the download's final reply: keeps the
    /// SIZE answer for `size`, connects the next download's data connection. A reply that does
    /// not fit closes the control connection and turns pipelining off; the download itself
    /// stands (the next call connects again).
    func readFollowUps(_ sent: SentFollowUps) {
        // Until a pipelined command was answered, a server that loses them is given the probe's time.
        let bound = pipelineProven ? nil : min(configuration.timeout, Self.pipelineProbeSeconds)
        do throws(FTPError) {
            if let path = sent.sizeOf {
                let reply = try ownReply(to: "SIZE", shown: "SIZE \(path)", seconds: bound)
                sizeAnswer = (path, reply)
            }
            if let time = sent.timeOf {
                let verb = String(time.shown.prefix { $0 != " " })
                timeAnswer = (time.shown, try ownReply(to: verb, shown: time.shown, seconds: bound))
            }
            if let hash = sent.hashOf {
                let verb = String(hash.shown.prefix { $0 != " " })
                do {
                    // The server reads the file to hash it: as long as that may take, never less
                    // than any reply sent ahead.
                    let wait = max(bound ?? configuration.timeout, hashSeconds(hash.moved))
                    hashAnswer = (
                        hash.path, hash.choice, try ownReply(to: verb, shown: hash.shown, seconds: wait, patient: true)
                    )
                } catch .timedOut {
                    // A slow hash, not a lost command: pipelining stays on; this connection ends.
                    log?(
                        "no reply to \(hash.shown) sent ahead within the time a hash may take; the connection is closed"
                    )
                    control?.close()
                    control = nil
                    return
                }
            }
            guard let next = sent.next else { return }
            let epsv = try ownReply(to: "EPSV", shown: "EPSV", seconds: bound)
            guard epsv.code == 229 || epsv.code == 227 else {
                throw FTPError.outOfStep("EPSV sent ahead of RETR \(next) got \(epsv.code) \(epsv.text)")
            }
            do {
                prefetch = Prefetch(path: next, data: try connectData(to: PassiveEndpoint.parse(epsv)))
            } catch {
                // The server may have refused the RETR at once and closed its listener: its reply
                // tells, and then the download is simply asked for again, one command at a time.
                _ = try refusal(of: "RETR", shown: "RETR \(next)", unusable: "\(error)")
            }
        } catch {
            switch error {
            case .outOfStep(let reason): turnPipeliningOff(reason)
            case .timedOut: turnPipeliningOff("no reply to commands sent ahead behind a download")
            default: break
            }
            control?.close()
            control = nil
        }
    }

    /// The prefetched download of `path` from byte 0 when there is one: its data connection and
    /// the first reply to its RETR (1xx or 2xx); nil when none was sent ahead for it (another
    /// one is ended first).
    /// - Throws: what the RETR's reply says (550 no such file), `.outOfStep` when no reply came
    ///   within the probe (see `startPipelined`), or what reading it throws.
    func takePrefetch(_ verb: String, _ path: String?, offset: UInt64) throws(FTPError) -> (any Transport, FTPReply)? {
        guard let prefetch else { return nil }
        guard verb == "RETR", path == prefetch.path, offset == 0, let control else {
            settlePrefetch()
            return nil
        }
        self.prefetch = nil
        let shown = "RETR \(prefetch.path)"
        let reply: FTPReply
        do {
            reply = try control.readReply(
                during: shown, maximumLines: ReplyParser.maximumLines,
                seconds: pipelineProven ? configuration.timeout : min(configuration.timeout, Self.pipelineProbeSeconds))
        } catch {
            prefetch.data.close()
            if case .timedOut = error {
                let reason = "no reply to \(shown) sent ahead within \(Int(Self.pipelineProbeSeconds)) s"
                turnPipeliningOff(reason)
                control.close()
                self.control = nil
                throw .outOfStep(reason)
            }
            throw error
        }
        if reply.isPreliminary { notePipelineProven() }
        do throws(FTPError) {
            return (try started(prefetch.data, reply, shown), reply)
        } catch {
            prefetch.data.close()
            throw error
        }
    }

    /// Ends a prefetched download nobody asked for: its data connection is closed and its
    /// replies read (a refusal, or 150 and the final reply of the cut transfer), at most
    /// `abandonPatience` seconds; otherwise the control connection is closed. Also drops a kept
    /// SIZE answer.
    func settlePrefetch() {
        sizeAnswer = nil
        timeAnswer = nil
        guard let prefetch else { return }
        self.prefetch = nil
        prefetch.data.close()
        guard let control else { return }
        let shown = "RETR \(prefetch.path) (sent ahead, not needed)"
        do {
            let reply = try control.readReply(
                during: shown, maximumLines: ReplyParser.maximumLines,
                seconds: min(configuration.timeout, Self.abandonPatience))
            if reply.isPreliminary { abandonReply(during: shown) }
        } catch {
            control.close()
            self.control = nil
        }
    }

    /// The answer read ahead to the command `shown` (a time set, as `setModificationTime`
    /// shows it), consumed; nil when none was.
    func takeTimeAnswer(for shown: String) -> FTPReply? {
        guard let answer = timeAnswer, answer.shown == shown else { return nil }
        timeAnswer = nil
        return answer.reply
    }

    /// The SIZE answer read ahead for `path`, consumed; nil when none was.
    func takeSizeAnswer(for path: String) -> FTPReply? {
        guard let answer = sizeAnswer, answer.path == path else { return nil }
        sizeAnswer = nil
        return answer.reply
    }
}
