#!/usr/bin/env bash
# Instructions per frame of each framing engine, by callgrind: a measure
# that the machine's load does not change (wall-clock ratios come from
# `cargo bench --bench framing`). Builds the bench, then for each
# <input>/<chunking> runs `none` (setup only) and each engine in
# single-engine mode (SSEKIT_FRAMING_ONLY), and prints
# (engine Ir - setup Ir) / frames.
#
#   tools/framing-ir.sh [cells...]     default: the cells with targets
#   ENGINES="ssekit sse-core" tools/framing-ir.sh responses/4KiB
#   BIN=/tmp/framing-before tools/framing-ir.sh   a bench binary built earlier
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${BIN:-}" ]; then
  bin=$BIN
else
  cargo bench --bench framing --no-run >/dev/null 2>&1
  bin=$(ls -t target/release/deps/framing-* | grep -v '\.d$' | head -1)
fi
engines=${ENGINES:-"ssekit ssekit-ref sse-core sse-stream sseer sse-parse eventsource-stream memchr-scan"}
cells=("$@")
if [ ${#cells[@]} -eq 0 ]; then
  cells=(responses/4KiB responses/event responses/16B chat/4KiB chat/event chat/16B
         anthropic/4KiB anthropic/event anthropic/16B data40k/1460B data40k/4KiB)
fi
ir() {
  SSEKIT_FRAMING_ONLY="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
frames() {
  SSEKIT_FRAMING_ONLY="$1" "$bin" | sed -n 's/.*passes, \([0-9]*\) frames each.*/\1/p'
}
printf '%-16s' cell; for e in $engines; do printf '%12s' "$e"; done; echo
for cell in "${cells[@]}"; do
  input=${cell%/*}; chunking=${cell#*/}
  base=$(ir "$input/none/$chunking/1")
  n=$(frames "$input/ssekit/$chunking/1")
  printf '%-16s' "$cell"
  for e in $engines; do
    total=$(ir "$input/$e/$chunking/1")
    printf '%12s' "$(( (total - base) / n ))"
  done
  echo
done
