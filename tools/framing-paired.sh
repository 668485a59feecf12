#!/usr/bin/env bash
# Wall clock of two builds of the framing bench, paired: for each round and
# cell, both binaries run the cell in single-engine mode
# (SSEKIT_FRAMING_ONLY=<input>/<engine>/<chunking>/<passes>) with PASSES
# passes and with one pass, taking turns (the order flips each round), so
# that the machine's load hits both alike. The time of one pass is
# (t(PASSES) - t(1)) / (PASSES - 1), without the setup (input generation
# and slicing); the ratio B / A is taken within each round, and the median
# over the rounds is printed per cell, with the 1-minute load average seen.
# A second ratio comes from the bench's own clock: the median pass time
# that single-engine mode prints for the PASSES run (no setup in it, and a
# pass preempted by another process does not move a median).
#
#   tools/framing-paired.sh A B [ROUNDS [PASSES]] [CELLS...]
#
# A and B are bench binaries (`cargo bench --bench framing --no-run` prints
# the path: target/release/deps/framing-<hash>); copy one aside before
# building the other. A cell is <input>/<engine>/<chunking>, or
# <input>/<chunking> for both `ssekit` and `ssekit-ref`. By default: every
# (input, chunking) cell that both binaries list (`--list`), for `ssekit`
# and `ssekit-ref`. ROUNDS defaults to 7. PASSES, by default, is set per
# cell from a first run of A (3 passes): as many as take about 0.3 s, at
# least 5, at most 1000, so that the setup's jitter is small beside them.
#
#   tools/framing-paired.sh /tmp/framing-main target/release/deps/framing-abc 7 0 chat/16B
#
# (PASSES 0 asks for the default while naming cells.)
set -euo pipefail
a=$1
b=$2
shift 2
rounds=7
passes=0
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then rounds=$1; shift; fi
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then passes=$1; shift; fi
((passes == 0 || passes >= 2)) || { echo "PASSES must be 0 (per cell) or at least 2" >&2; exit 2; }
engines=(ssekit ssekit-ref)
cells=()
if [[ $# -gt 0 ]]; then
  for c in "$@"; do
    IFS=/ read -r -a p <<<"$c"
    case ${#p[@]} in
      3) cells+=("$c") ;;
      2) for e in "${engines[@]}"; do cells+=("${p[0]}/$e/${p[1]}"); done ;;
      *) echo "bad cell $c: want <input>/<engine>/<chunking> or <input>/<chunking>" >&2; exit 2 ;;
    esac
  done
else
  # criterion's `--list` prints `<input>/<engine>/<chunking>: benchmark`.
  list() { "$1" --bench --list 2>/dev/null | sed -n 's/^\([^ ]*\): benchmark$/\1/p' | sort; }
  pattern="/($(IFS='|'; echo "${engines[*]}"))/"
  mapfile -t cells < <(comm -12 <(list "$a") <(list "$b") | grep -E "$pattern")
  ((${#cells[@]})) || { echo "no cell listed by both binaries" >&2; exit 2; }
fi
only() { # <input>/<engine>/<chunking>  <passes>  <binary>: "nanoseconds median-ms"
  local start end out
  start=$(date +%s%N)
  out=$(SSEKIT_FRAMING_ONLY="$1/$2" "$3")
  end=$(date +%s%N)
  echo "$((end - start)) $(sed -n 's/.*, median \([0-9.]*\) ms$/\1/p' <<<"$out")"
}
declare -A cell_passes
for cell in "${cells[@]}"; do
  if ((passes)); then
    cell_passes[$cell]=$passes
  else
    read -r _ ms < <(only "$cell" 3 "$a")
    cell_passes[$cell]=$(awk -v ms="$ms" 'BEGIN { p = int(300 / (ms > 0 ? ms : 0.001)) + 1
      print (p < 5 ? 5 : p > 1000 ? 1000 : p) }')
  fi
done
for ((r = 1; r <= rounds; r++)); do
  for cell in "${cells[@]}"; do
    if ((r % 2)); then order=(a b); else order=(b a); fi
    declare -A many one med
    n=${cell_passes[$cell]}
    for who in "${order[@]}"; do
      bin=$a; [[ $who == b ]] && bin=$b
      read -r many[$who] med[$who] < <(only "$cell" "$n" "$bin")
    done
    for who in "${order[@]}"; do
      bin=$a; [[ $who == b ]] && bin=$b
      read -r one[$who] _ < <(only "$cell" 1 "$bin")
    done
    echo "$cell $n $((many[a] - one[a])) $((many[b] - one[b])) ${med[a]} ${med[b]} $(cut -d' ' -f1 /proc/loadavg)"
  done
done | awk -v rounds="$rounds" -v cells="${cells[*]}" '
  # $1 cell, $2 passes, $3 $4 ns of A and B net of setup, $5 $6 median
  # pass ms of A and B (the bench clock), $7 load average.
  { passes[$1] = $2
    # A pass so short that setup jitter swamps it can come out at or below
    # zero; such a round gives no wall-clock ratio.
    if ($3 > 0 && $4 > 0) { ratio[$1] = ratio[$1] " " ($4 / $3); n[$1]++ }
    if ($5 > 0 && $6 > 0) inner[$1] = inner[$1] " " ($6 / $5)
    a_ms[$1] = a_ms[$1] " " ($3 / ($2 - 1) / 1e6)
    b_ms[$1] = b_ms[$1] " " ($4 / ($2 - 1) / 1e6)
    if (lo == "" || $7 < lo) lo = $7; if ($7 > hi) hi = $7 }
  function median(s,   v, k, i, j, t) {
    k = split(s, v, " ")
    for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
  }
  function cell(s) { return s == "" ? sprintf("%9s", "-") : sprintf("%9.3f", median(s)) }
  END {
    printf "%-32s %9s %9s %11s %11s %6s %6s\n", "cell", "B / A", "(bench)", "A ms/pass", "B ms/pass", "passes", "rounds"
    k = split(cells, list, " ")
    for (i = 1; i <= k; i++) {
      c = list[i]
      printf "%-32s %s %s %11.3f %11.3f %6d %6d\n", c, cell(ratio[c]), cell(inner[c]),
        median(a_ms[c]), median(b_ms[c]), passes[c], n[c]
    }
    printf "%d rounds; B / A: wall clock net of setup, (bench): median pass time as the bench clocks it\n", rounds
    printf "load average (1 min): %s-%s\n", lo, hi
  }'
