//! The help texts: the tool's (`ssekit --help`), a list of the commands,
//! and each command's (`ssekit <command> --help`), with its options and an
//! example.

/// `ssekit --help`.
pub(crate) const TOOL: &str = "\
usage: ssekit <command> [options] [FILE]
       ssekit <command> --help      that command's options and an example
       ssekit --help | --version

commands:
  frames     print each SSE event as one JSON object: its event, data, id and retry
  events     print each event as one JSON object written from its typed view
  encode     the reverse of frames: its JSON lines back to an SSE stream
  assemble   print the final response assembled from the stream's events
  lint       check a stream against what real clients require
  bridge     translate a stream into another dialect and write it as SSE

FILE defaults to standard input. Events are printed as they are read, so a live
stream can be piped in (curl -N ... | ssekit events). Warnings go to standard
error. Exit status: 0 on success; 1 for a problem the command is there to report
(see each command's help); 2 for usage and I/O errors.
";

/// The help of `command`, or `None` for a command there is none of.
pub(crate) fn of(command: &str) -> Option<&'static str> {
    Some(match command {
        "frames" => FRAMES,
        "events" => EVENTS,
        "encode" => ENCODE,
        "assemble" => ASSEMBLE,
        "lint" => LINT,
        "bridge" => BRIDGE,
        _ => return None,
    })
}

const FRAMES: &str = "\
usage: ssekit frames [--strict] [--chunk N] [FILE]

Parses FILE (or standard input) as an SSE stream and prints each dispatched
event as one JSON object per line, as soon as it is read:
{\"event\": ..., \"data\": ..., \"id\": ..., \"retry\": ... or null}

options:
  --chunk N    feed the parser exactly N bytes at a time (default: what each
               read returns)
  --strict     exit status 1 when the input holds no event, ends inside one,
               or breaks a parser limit
  -h, --help   print this help

example:
  ssekit frames samples/responses-text.sse
  curl -sN https://example.com/stream | ssekit frames

Exit status: 0; 1 with --strict for the problems above; 2 for usage and I/O
errors.
";

const EVENTS: &str = "\
usage: ssekit events [--dialect D] [--strict] [--chunk N] [FILE]

Prints each event of the stream as one JSON object per line, written from its
typed view: \"type\" and every field the view decoded (strings unescaped), a
subset of the event's JSON with equal values. An unknown type prints as
{\"type\": T, \"unknown\": true}, [DONE] as {\"type\": \"[DONE]\"}. No frame is
skipped: one that does not decode prints {\"type\": T, \"undecodable\": true,
\"error\": E, \"offset\": N} (N: where its block began in the stream) and a
warning.

options:
  --dialect D  responses, chat, anthropic, gemini or auto (default auto: told by
               the stream's first event that tells it)
  --chunk N    feed the parser exactly N bytes at a time (default: what each
               read returns)
  --strict     exit status 1 when the input holds no event, ends inside one,
               breaks a parser limit or has an event that does not decode
  -h, --help   print this help

example:
  ssekit events --dialect responses samples/responses-text.sse
  curl -sN https://example.com/v1/responses -d @request.json | ssekit events

Exit status: 0; 1 with --strict for the problems above; 2 for usage and I/O
errors.
";

const ENCODE: &str = "\
usage: ssekit encode [FILE]

The reverse of `ssekit frames`: reads its JSON lines from FILE (or standard
input) and writes the SSE stream, so that `frames FILE | encode | frames` prints
what `frames FILE` prints. Each line is {\"data\": ...} with \"event\", \"id\"
and \"retry\" optional; blank lines are skipped; any other member is an error.

options:
  -h, --help   print this help

example:
  ssekit frames samples/responses-text.sse | ssekit encode

Exit status: 0; 1 for a line it cannot read (the frames before it are
written, and the message names the line); 2 for usage and I/O errors.
";

const ASSEMBLE: &str = "\
usage: ssekit assemble [--dialect D] [--as D] [--chunk N] [FILE]

Prints the final response assembled from the stream's events as one JSON
object, in the API's own shape: a Response, a Chat Completion, an Anthropic
Message or a Gemini GenerateContentResponse. Anomalies such as skipped
sequence numbers go to standard error. A stream that ended early is still
assembled and printed.

options:
  --dialect D  responses, chat, anthropic, gemini or auto (default auto: told by
               the stream's first event that tells it)
  --as D       responses, chat, anthropic or gemini: print the final answer in
               that API's non-streaming shape instead, whatever the stream's
               dialect (a response, a chat.completion, a message, a
               GenerateContentResponse); what the shape cannot say (hosted
               tools towards Chat, signatures towards Chat) is left out
  --chunk N    feed the parser exactly N bytes at a time (default: what each
               read returns)
  -h, --help   print this help

example:
  ssekit assemble samples/responses-text.sse
  ssekit assemble --as anthropic samples/responses-text.sse

Exit status: 0; 1 when the stream ended early; 2 for usage and I/O errors.
";

const LINT: &str = "\
usage: ssekit lint [--json] [--dialect D] [--chunk N] [FILE]

Checks an OpenAI Responses, Chat Completions, Anthropic Messages or Gemini
stream against what real clients require (the first event tells the dialect,
which is named on standard error, unless --dialect gives it; the rules are
listed in the docs of ssekit::lint). Prints one line per finding, as it is
found: offset, sequence number, severity, rule and message; then a summary
line.

options:
  --json       one {\"rule\", \"severity\", \"offset\", \"sequence_number\",
               \"message\"} object per line, and no summary
  --dialect D  responses, chat, anthropic, gemini or auto (the default)
  --chunk N    feed the parser exactly N bytes at a time (default: what each
               read returns)
  -h, --help   print this help

example:
  ssekit lint samples/responses-text.sse
  curl -sN https://example.com/v1/responses -d @request.json | ssekit lint --json

Exit status: 0 with no error finding; 1 with one; 2 for usage and I/O errors.
";

const BRIDGE: &str = "\
usage: ssekit bridge --to responses|chat|anthropic|gemini [--from D] [--chunk N] [FILE]

Translates the stream into another dialect and writes it as SSE, event by
event: any of OpenAI Responses, Chat Completions, Anthropic Messages and
Gemini into any other. Each fragment is written as soon as it arrives
(towards Anthropic and Responses, whose items are sequential, a later
item's fragments wait for the open item to end).

options:
  --to T       responses, chat, anthropic or gemini: the dialect to write
               (required)
  --from D     responses, chat, anthropic, gemini or auto (default auto: told by
               the stream's first event that tells it)
  --chunk N    feed the parser exactly N bytes at a time (default: what each
               read returns)
  -h, --help   print this help

example:
  ssekit bridge --to chat samples/responses-text.sse
  ssekit bridge --to anthropic samples/responses-text.sse

Exit status: 0; 1 when the upstream broke its protocol or ended early (the
output still ends well formed, with the target dialect's error end); 2 for
usage and I/O errors.
";
