#!/usr/bin/env bash
# The order in which the `grundy` binary's code is laid out: text-order.txt, read by the
# linker (build.rs). A small run's peak memory is mostly the binary's own pages, and the
# kernel maps each page of code a run enters together with up to 15 around it; the code a
# start and a small parity solve run, spread over the whole text, had mapped 1.8 MB of it
# by the time a process waited for its input; placed first and together, 0.75 MB.
#
#   crates/grundy-cli/text-order.sh           # rewrite text-order.txt (needs valgrind, nm)
#   crates/grundy-cli/text-order.sh --check   # how many of its symbols the release binary has
#
# The names carry hashes that change with the toolchain and with any dependency's version,
# and a few (`.llvm.` suffixes) with the code around them: a stale line costs nothing but
# its effect, so `--check` (run by CI) fails when fewer than three in four are found.
set -euo pipefail
cd "$(dirname "$0")/../.."
list=crates/grundy-cli/text-order.txt
bin=target/release/grundy

cargo build -q --release -p grundy-cli

defined() { nm --defined-only "$bin" | awk 'NF == 3 && $2 ~ /^[tTwW]$/ { print $3 }'; }

if [ "${1:-}" = --check ]; then
  total=$(grep -cv '^#' "$list")
  found=$(grep -v '^#' "$list" | sort -u | comm -12 - <(defined | sort -u) | wc -l)
  echo "text-order.txt: $found of $total symbols are in $bin"
  if [ $((found * 4)) -lt $((total * 3)) ]; then
    echo "text-order.txt is stale (the toolchain or a dependency changed):" \
      "run crates/grundy-cli/text-order.sh and commit the list it writes" >&2
    exit 1
  fi
  exit 0
fi

command -v valgrind >/dev/null || {
  echo "text-order.sh needs valgrind (its callgrind tool lists the functions a run enters)" >&2
  exit 1
}
cargo build -q --release -p grundy --example parity_bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen() { target/release/examples/parity_bench gen "$@" --dry >/dev/null 2>&1; }
gen random 400 --priorities 4 --write "$work/random.pg"
gen random 300 --write "$work/spread.pg"
gen friedmann 20 --write "$work/friedmann.pg"
gen gw 6 --write "$work/gw.pg"
gen ladder 200 --write "$work/ladder.pg"
gzip -k "$work/random.pg"

run=0
profile() {
  run=$((run + 1))
  valgrind -q --tool=callgrind --demangle=no --callgrind-out-file="$work/$run.cg" \
    "$bin" "$@" >/dev/null
}
# What every start runs first, then the parity solves, then a game by the general method.
profile --version
for file in random.pg.gz spread.pg friedmann.pg gw.pg ladder.pg; do
  for algorithm in tangle zielonka fpj; do
    profile graph "$work/$file" --algorithm "$algorithm"
  done
done
profile graph "$work/random.pg" --objective buchi
profile solve 'nim(3,3,1)'

# Each function once, in the order the runs first name it, if the binary defines it.
defined >"$work/defined"
python3 - "$work" >"$work/order" <<'EOF'
import glob, os, re, sys
work = sys.argv[1]
defined = set(open(os.path.join(work, "defined")).read().split())
seen = set()
runs = sorted(glob.glob(os.path.join(work, "*.cg")), key=lambda p: int(os.path.basename(p)[:-3]))
for path in runs:
    for line in open(path, errors="replace"):
        m = re.match(r"c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
        if m and m.group(1) in defined and m.group(1) not in seen:
            seen.add(m.group(1))
            print(m.group(1))
EOF
{
  echo "# Written by text-order.sh: the functions a start and small solves run, in the order"
  echo "# they first run; the linker places them first (build.rs). Regenerate, do not edit."
  cat "$work/order"
} >"$list"
echo "$list: $(wc -l <"$work/order") functions"
