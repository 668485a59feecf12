#!/usr/bin/env bash
# Seeds fuzz/corpus/<target> (not committed) from the shared recorded streams.
#
#   fuzz/seed-corpus.sh [target]      (default target: framing)
#
# Source: $SSEKIT_CORPUS, else ../shared/corpus beside the repository.
#
# framing, encode: each *.sse file is copied as is, and once more behind a
#   4-byte all-zero header (default limits, no extra split points) so the
#   framing fuzzer also starts from the intact stream; see the input layout
#   in fuzz_targets/framing.rs.
# decode, json, partial_json: the data of the events, one file each (the
#   first two events of each `type` in each stream, so the seeds cover every
#   event kind without thousands of near-duplicate deltas). decode seeds get
#   a leading byte (the event name picker), partial_json seeds a leading
#   0x03 and three cut points (see the input layouts in those targets).
# accumulate: each *.sse file behind a 2-byte header (its dialect, a memory
#   limit), twice: a roomy and a tight limit.
# bridge: each *.sse file behind a 2-byte header (the bridge for its
#   dialect, no split points).
# differential: the data of the events (selected as for decode) of the
#   Responses, Chat and Anthropic streams, behind the dialect byte and the
#   event's SSE name and a line feed (see fuzz_targets/differential.rs); then
#   the hand-written hostile cases of tests/support/differential-hostile.tsv
#   (duplicate and escaped `type` keys and values, nested `delta.type`,
#   numbers beyond the f64 range, lone surrogates), each with and without its
#   event name.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="${1:-framing}"
src="${SSEKIT_CORPUS:-$here/../../shared/corpus}"
dst="$here/corpus/$target"
if [ ! -d "$src" ]; then
    echo "seed-corpus: no corpus at $src (set SSEKIT_CORPUS)" >&2
    exit 1
fi
mkdir -p "$dst"

# Writes the selected event data of stream $1 to $dst/seed-<name>-<n>, with
# the prefix $2 (printf format) before each.
event_seeds() {
    local f="$1" prefix="$2" name n=0 data
    name="$(basename "$f" .sse)"
    while IFS= read -r data; do
        { printf "$prefix"; printf '%s' "$data"; } >"$dst/seed-$name-$n"
        n=$((n + 1))
    done < <(awk '
        /^data:/ {
            d = substr($0, 6); sub(/^ /, "", d); sub(/\r$/, "", d)
            t = ""
            if (match(d, /"type" *: *"[^"]*"/)) t = substr(d, RSTART, RLENGTH)
            if (seen[t]++ < 2) print d
        }' "$f")
    echo "$n"
}

# The dialect byte of the differential target for a stream (a printf
# format), or nothing.
dialect_byte() {
    case "$1" in
    *-responses-*) echo '\000' ;;
    *-chat-*) echo '\001' ;;
    *-anthropic-*) echo '\002' ;;
    esac
}

# Writes the selected events of stream $1 as differential seeds, each behind
# the dialect byte $2 and its event name line.
differential_seeds() {
    local f="$1" d="$2" name n=0 event data
    name="$(basename "$f" .sse)"
    while IFS=$'\t' read -r event data; do
        { printf "$d"; printf '%s\n%s' "$event" "$data"; } >"$dst/seed-$name-$n"
        n=$((n + 1))
    done < <(awk '
        /^event:/ { e = substr($0, 7); sub(/^ /, "", e); sub(/\r$/, "", e) }
        /^\r?$/ { e = "" }
        /^data:/ {
            d = substr($0, 6); sub(/^ /, "", d); sub(/\r$/, "", d)
            t = ""
            if (match(d, /"type" *: *"[^"]*"/)) t = substr(d, RSTART, RLENGTH)
            if (seen[t]++ < 2) print e "\t" d
        }' "$f")
}

n=0
for f in "$src"/*.sse; do
    [ -e "$f" ] || continue
    name="$(basename "$f" .sse)"
    case "$target" in
    decode)
        printf -v pick '\\%03o' "$(((n * 37) % 256))"
        event_seeds "$f" "$pick" >/dev/null
        ;;
    json) event_seeds "$f" '' >/dev/null ;;
    accumulate)
        # Byte 0: the dialect (0 Responses, 1 Chat, 2 Anthropic, 3 Gemini);
        # byte 1: the memory limit (0xff: 16 KiB; 0x08: 576 B, to reach the
        # limit).
        case "$name" in
        *-chat-*) d='\001' ;;
        *-anthropic-*) d='\002' ;;
        *-gemini-*) d='\003' ;;
        *) d='\000' ;;
        esac
        { printf "$d\377"; cat "$f"; } >"$dst/seed-$name"
        { printf "$d\010"; cat "$f"; } >"$dst/seed-small-$name"
        ;;
    bridge)
        # Byte 0: the bridge (0 Chat, 1 Anthropic, 2 Gemini to Responses,
        # 3 Responses to Chat; +4 for tiny limits); byte 1: no split points.
        case "$name" in
        *-chat-*) d='\000' ;;
        *-anthropic-*) d='\001' ;;
        *-gemini-*) d='\002' ;;
        *) d='\003' ;;
        esac
        { printf "$d\000"; cat "$f"; } >"$dst/seed-$name"
        ;;
    partial_json) event_seeds "$f" '\003\100\200\300' >/dev/null ;;
    differential)
        d="$(dialect_byte "$name")"
        if [ -n "$d" ]; then differential_seeds "$f" "$d"; fi
        ;;
    *)
        cp "$f" "$dst/seed-$name"
        { printf '\0\0\0\0'; cat "$f"; } >"$dst/seed-h0-$name"
        ;;
    esac
    n=$((n + 1))
done
if [ "$target" = differential ]; then
    # status, dialect, event name (- for none), data: see the table's header.
    k=0
    while IFS=$'\t' read -r status dialect event data; do
        case "$status" in '#'* | '') continue ;; esac
        case "$dialect" in
        responses) d='\000' ;;
        chat) d='\001' ;;
        anthropic) d='\002' ;;
        *) echo "seed-corpus: unknown dialect $dialect" >&2; exit 1 ;;
        esac
        [ "$event" = - ] && event=''
        { printf "$d"; printf '%s\n%s' "$event" "$data"; } >"$dst/seed-hostile-$k"
        if [ -n "$event" ]; then
            { printf "$d"; printf '\n%s' "$data"; } >"$dst/seed-hostile-$k-unnamed"
        fi
        k=$((k + 1))
    done <"$here/../tests/support/differential-hostile.tsv"
fi
echo "seed-corpus: $n streams from $src -> $dst ($(find "$dst" -maxdepth 1 -type f | wc -l) files)"
