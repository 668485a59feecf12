#!/usr/bin/env bash
# Instructions per event of the ssekit typed pipelines (framing + typed
# decoding), by callgrind: a measure the machine's load does not change
# (wall-clock ratios come from `cargo bench --bench pipeline`). Builds the
# bench, then for each engine runs 1 and 3 passes in single-engine mode
# (SSEKIT_PIPELINE_ONLY) with collection toggled on the engine's run
# function, and prints (3 passes - 1 pass) / (2 x events): the per-event cost
# without the setup.
#
#   tools/pipeline-ir.sh            4 KiB reads
#   CHUNKING=16B tools/pipeline-ir.sh
set -euo pipefail
cd "$(dirname "$0")/.."
chunking=${CHUNKING:-4KiB}
cargo bench --bench pipeline --no-run >/dev/null 2>&1
bin=$(ls -t target/release/deps/pipeline-* | grep -v '\.d$' | head -1)
ir() {
  SSEKIT_PIPELINE_ONLY="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    --toggle-collect="$2" "$bin" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
events() {
  SSEKIT_PIPELINE_ONLY="$1" "$bin" | sed -n 's/.*passes × \([0-9]*\) events.*/\1/p'
}
printf '%-18s %10s\n' engine "Ir/event"
for spec in "chat-ssekit pipeline::ChatEngine::run*" "ssekit pipeline::Engine::run*" \
            "anthropic-ssekit pipeline::dialects::anthropic_ssekit" \
            "gemini-ssekit pipeline::dialects::gemini_ssekit"; do
  read -r engine fn <<<"$spec"
  n=$(events "$engine/$chunking/1")
  one=$(ir "$engine/$chunking/1" "$fn")
  three=$(ir "$engine/$chunking/3" "$fn")
  printf '%-18s %10s\n' "$engine" "$(( (three - one) / (2 * n) ))"
done
