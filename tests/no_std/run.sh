#!/usr/bin/env bash
# The no_std check, both ways:
#  1. builds this #![no_std] staticlib against ssekit with default-features = false,
#     links it into a C program with gcc and runs it (expects 2 frames, 11 data bytes);
#  2. builds a scratch copy against ssekit WITH its default `std` feature and
#     requires that to fail with E0152 "duplicate lang item `panic_impl`",
#     proving that step 1 would catch `std` leaking into the graph.
# Usage: tests/no_std/run.sh   (from anywhere)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
target="$here/target"
cd "$here"

echo "no_std: building the staticlib against ssekit (default-features = false)"
cargo build --quiet --manifest-path "$here/Cargo.toml" --target-dir "$target"
lib="$target/debug/libssekit_no_std_check.a"
if command -v gcc >/dev/null; then
    gcc -o "$target/check" "$here/check.c" "$lib"
    "$target/check"
else
    echo "no_std: gcc not found; built but not run"
fi

echo "no_std: control — the same crate with ssekit's default features must NOT build"
neg="$target/neg"
rm -rf "$neg"
mkdir -p "$neg"
cp -r "$here/src" "$neg/"
sed -e "s|^ssekit = .*|ssekit = { path = \"$repo\", default-features = true }|" \
    "$here/Cargo.toml" > "$neg/Cargo.toml"
grep -q 'default-features = true' "$neg/Cargo.toml"
if cargo build --quiet --manifest-path "$neg/Cargo.toml" --target-dir "$target/neg-target" \
    > "$neg/build.log" 2>&1; then
    echo "no_std: control build succeeded, so the check cannot detect std" >&2
    exit 1
fi
if ! grep -q 'duplicate lang item `panic_impl`' "$neg/build.log"; then
    echo "no_std: control build failed for another reason:" >&2
    cat "$neg/build.log" >&2
    exit 1
fi
grep -m1 'duplicate lang item' "$neg/build.log" | sed 's/^/no_std: control failed as expected: /'
grep -m1 'first defined in crate `std`' "$neg/build.log" | sed 's/^ *= /no_std: /'
echo "no_std: ok"
