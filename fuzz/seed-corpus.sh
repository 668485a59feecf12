#!/usr/bin/env bash
# Seeds fuzz/corpus/<target> (not committed) from the shared recorded streams.
#
#   fuzz/seed-corpus.sh [target]      (default target: framing)
#
# Source: $SSEKIT_CORPUS, else ../shared/corpus beside the repository.
# Each *.sse file is copied as is, and once more behind a 4-byte all-zero
# header (default limits, no extra split points) so the fuzzer also starts
# from the intact stream; see the input layout in fuzz_targets/framing.rs.
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
n=0
for f in "$src"/*.sse; do
    [ -e "$f" ] || continue
    name="$(basename "$f" .sse)"
    cp "$f" "$dst/seed-$name"
    { printf '\0\0\0\0'; cat "$f"; } > "$dst/seed-h0-$name"
    n=$((n + 1))
done
echo "seed-corpus: $n streams from $src -> $dst"
