//! A naive reference SSE parser, written for clarity rather than speed,
//! straight from the WHATWG HTML Standard, section 9.2.6 "Interpreting an
//! event stream" (and 9.2.5's parsing of the stream into lines).
//!
//! It is an oracle for the tests: it shares no code with `ssekit` and takes
//! the whole stream at once, so it has no chunking, no limits and no
//! zero-copy tricks to get wrong. Where the standard leaves something to the
//! user agent, it follows the choices `ssekit` documents: `retry` needs at
//! least one digit and saturates at `u64::MAX`, and the `retry` value set in
//! an event's own block is reported with that event.

/// One event the reference parser dispatched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OracleEvent {
    /// The event's type: the event type buffer, or `message` when it was empty.
    pub event: String,
    /// The data buffer, without its final LF.
    pub data: String,
    /// The last event ID string when the event was dispatched.
    pub id: String,
    /// The reconnection time set by a valid `retry` field in this event's
    /// own block (the last one, if several), if any.
    pub retry: Option<u64>,
}

/// Everything the reference parser saw in one whole stream.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct OracleOutput {
    /// The dispatched events, in order.
    pub events: Vec<OracleEvent>,
    /// Every value a valid `retry` field set the reconnection time to, in
    /// order (whether or not its block dispatched an event).
    pub retries: Vec<u64>,
    /// The last event ID string at the end of the stream.
    pub last_event_id: String,
}

impl OracleOutput {
    /// The reconnection time at the end of the stream, if any `retry` set it.
    pub(crate) fn reconnection_time(&self) -> Option<u64> {
        self.retries.last().copied()
    }
}

/// Parses a whole event stream.
pub(crate) fn parse(stream: &[u8]) -> OracleOutput {
    // The stream is decoded with UTF-8 decode: one leading byte order mark
    // is skipped, and every invalid byte sequence becomes U+FFFD.
    let stream = stream.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(stream);
    let text = String::from_utf8_lossy(stream);

    let mut out = OracleOutput::default();
    let mut state = State::default();
    // Lines end in CRLF, a lone LF or a lone CR. Whatever follows the last
    // terminator is an unfinished line: the stream ended inside it, so it is
    // never processed (and the block it belongs to is never dispatched).
    for line in complete_lines(&text) {
        state.process_line(line, &mut out);
    }
    // Once the end of the file is reached, any pending data must be
    // discarded: an event not followed by a blank line is not dispatched.
    // (Nothing to do: the pending buffers are simply dropped.)
    out.last_event_id = state.last_event_id;
    out
}

/// The complete lines of `text`, without terminators. A CR directly
/// followed by an LF is one terminator; the text after the last terminator
/// is not a line.
fn complete_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(['\r', '\n']) {
        lines.push(&rest[..i]);
        let terminator_len = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[i + terminator_len..];
    }
    lines
}

/// The buffers of the algorithm.
#[derive(Default)]
struct State {
    /// The data buffer.
    data: String,
    /// The event type buffer.
    event_type: String,
    /// The last event ID buffer (set by `id` fields).
    last_event_id_buffer: String,
    /// The event source's last event ID string (set at each blank line).
    last_event_id: String,
    /// Not in the standard: the reconnection time set in the current block.
    retry_in_block: Option<u64>,
}

impl State {
    fn process_line(&mut self, line: &str, out: &mut OracleOutput) {
        if line.is_empty() {
            // If the line is empty (a blank line): dispatch the event.
            self.dispatch(out);
        } else if line.starts_with(':') {
            // If the line starts with a colon: ignore the line (a comment).
        } else if let Some(colon) = line.find(':') {
            // If the line contains a colon: the field name is everything
            // before the first colon, the value everything after it, minus
            // one leading space if there is one.
            let name = &line[..colon];
            let value = &line[colon + 1..];
            let value = value.strip_prefix(' ').unwrap_or(value);
            self.process_field(name, value, out);
        } else {
            // Otherwise (no colon): the whole line is the field name and
            // the value is the empty string.
            self.process_field(line, "", out);
        }
    }

    fn process_field(&mut self, name: &str, value: &str, out: &mut OracleOutput) {
        match name {
            // "event": set the event type buffer to the value.
            "event" => self.event_type = value.to_owned(),
            // "data": append the value to the data buffer, then append LF.
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
            }
            // "id": if the value does not contain NULL, set the last event
            // ID buffer to it; otherwise ignore the field.
            "id" if !value.contains('\0') => self.last_event_id_buffer = value.to_owned(),
            // "retry": if the value consists of only ASCII digits, interpret
            // it as a base-ten integer and set the reconnection time to it;
            // otherwise ignore the field. (ssekit's choices: at least one
            // digit, and saturate instead of overflowing.)
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                let ms = value.bytes().fold(0u64, |n, d| {
                    n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                });
                out.retries.push(ms);
                self.retry_in_block = Some(ms);
            }
            // Otherwise (any other name, or an `id` / `retry` value that is
            // not valid): the field is ignored.
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut OracleOutput) {
        // 1. Set the last event ID string of the event source to the value
        //    of the last event ID buffer. (The buffer is not reset, so later
        //    events keep this ID until another `id` field changes it.)
        self.last_event_id = self.last_event_id_buffer.clone();
        let retry = self.retry_in_block.take();
        // 2. If the data buffer is empty, set the data buffer and the event
        //    type buffer to the empty string and return.
        if self.data.is_empty() {
            self.event_type.clear();
            return;
        }
        // 3. If the data buffer's last character is LF, remove it.
        let mut data = std::mem::take(&mut self.data);
        if data.ends_with('\n') {
            data.pop();
        }
        // 4-5. Create the event with that data and the last event ID string;
        //    its type is the event type buffer if that is not empty, else
        //    "message".
        let event = if self.event_type.is_empty() {
            "message".to_owned()
        } else {
            std::mem::take(&mut self.event_type)
        };
        // 6. Set the data buffer and the event type buffer to the empty
        //    string (done by the `take`s above), and queue the event.
        self.event_type.clear();
        out.events.push(OracleEvent {
            event,
            data,
            id: self.last_event_id.clone(),
            retry,
        });
    }
}
