#!/usr/bin/env bash
# Wall clock of two builds of the pipeline bench, paired: for each round and
# engine, both binaries run the engine in single-engine mode
# (SSEKIT_PIPELINE_ONLY) with PASSES passes and with one pass, taking turns
# (the order flips each round), so that the machine's load hits both alike.
# The time of one pass is (t(PASSES) - t(1)) / (PASSES - 1), without the
# setup; the ratio B / A is taken within each round, and the median over the
# rounds is printed per engine, with the 1-minute load average seen.
#
#   tools/pipeline-paired.sh A B [ROUNDS [PASSES [CHUNKING]]]
#
# A and B are bench binaries (`cargo bench --bench pipeline --no-run` prints
# the path: target/release/deps/pipeline-<hash>); copy one aside before
# building the other.
set -euo pipefail
a=$1
b=$2
rounds=${3:-7}
passes=${4:-300}
chunking=${5:-4KiB}
engines=(ssekit chat-ssekit anthropic-ssekit gemini-ssekit)
secs() {
  local start end
  start=$(date +%s%N)
  SSEKIT_PIPELINE_ONLY="$1" "$2" >/dev/null
  end=$(date +%s%N)
  echo $((end - start))
}
for ((r = 1; r <= rounds; r++)); do
  for engine in "${engines[@]}"; do
    if ((r % 2)); then order=(a b); else order=(b a); fi
    declare -A many one
    for who in "${order[@]}"; do
      bin=$a; [[ $who == b ]] && bin=$b
      many[$who]=$(secs "$engine/$chunking/$passes" "$bin")
    done
    for who in "${order[@]}"; do
      bin=$a; [[ $who == b ]] && bin=$b
      one[$who]=$(secs "$engine/$chunking/1" "$bin")
    done
    echo "$engine $(( many[a] - one[a] )) $(( many[b] - one[b] )) $(cut -d' ' -f1 /proc/loadavg)"
  done
done | awk -v passes="$passes" -v engines="${engines[*]}" '
  { ratio[$1] = ratio[$1] " " ($3 / $2); n[$1]++
    ns[$1] = ns[$1] " " ($2 / (passes - 1) / 1e6)
    if (lo == "" || $4 < lo) lo = $4; if ($4 > hi) hi = $4 }
  function median(s,   v, k, i, j, t) {
    k = split(s, v, " ")
    for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
  }
  END {
    printf "%-18s %8s %12s\n", "engine", "B / A", "A ms/pass"
    k = split(engines, list, " ")
    for (i = 1; i <= k; i++) { e = list[i]; printf "%-18s %8.3f %12.2f\n", e, median(ratio[e]), median(ns[e]) }
    printf "load average (1 min): %s-%s\n", lo, hi
  }'
