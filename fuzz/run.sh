#!/usr/bin/env bash
# Runs every fuzz target for a bounded time (default 20 s each; `fuzz/run.sh 60` for a
# minute each, `fuzz/run.sh 20 spec seq` for some targets). Needs cargo-fuzz
# (`cargo install cargo-fuzz`); on a stable toolchain RUSTC_BOOTSTRAP=1 lets it use the
# unstable flags it needs, and `-s none` skips the sanitizer, which stable cannot build.
#
# New inputs go to fuzz/corpus-new/TARGET (not kept in git); the seeds in fuzz/corpus/TARGET
# are read but not written. A failure leaves its input in fuzz/artifacts/TARGET: copy it to
# fuzz/corpus/TARGET/ once fixed, so that the corpus-replay tests
# (`cargo test --manifest-path fuzz/Cargo.toml`) keep checking it on stable.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-20}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(spec poi pgsolver digraph seq tablebase)
fi
export RUSTC_BOOTSTRAP=1
status=0
for t in "${targets[@]}"; do
  mkdir -p "corpus-new/$t"
  echo "== $t: ${seconds}s"
  set +e
  cargo fuzz run "$t" --features libfuzzer -s none "corpus-new/$t" "corpus/$t" -- \
    -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=512 \
    -print_final_stats=1 >"corpus-new/$t.log" 2>&1
  rc=$?
  set -e
  grep -E '^(Done [0-9]+ runs|stat::number_of_executed_units|SUMMARY)|panicked' "corpus-new/$t.log" || true
  if [ "$rc" -ne 0 ]; then
    echo "!! $t failed (exit $rc); see fuzz/corpus-new/$t.log and fuzz/artifacts/$t/"
    tail -30 "corpus-new/$t.log"
    status=1
  fi
done
exit "$status"
