#!/usr/bin/env bash
# Fuzz smoke run (part of scripts/test.sh): builds the fuzz targets in fuzz/
# once (cargo-fuzz, nightly) and runs each for a bounded time over its
# committed seed corpus (fuzz/corpus/<target>/, left unchanged: new inputs
# go to a scratch directory). Exits non-zero when a target crashes, panics,
# leaks past libFuzzer's limits or hangs; the failing input is kept and the
# command that reproduces it is printed.
#
# FUZZ_SMOKE_SECONDS sets the time per target (default 10). Arguments name
# targets to run (default: all). Without nightly or cargo-fuzz it prints a
# SKIPPED banner and exits 0, unless MCPR_REQUIRE_FUZZ=1 (set by
# scripts/test.sh, whose setup installs both), which makes it fail.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fuzz-common.sh

missing="$(fuzz_missing)"
if [ -n "$missing" ]; then
  echo "################################################################"
  echo "## SKIPPED: fuzz smoke run: $missing"
  echo "################################################################"
  if [ "${MCPR_REQUIRE_FUZZ:-0}" = 1 ]; then
    echo "fuzz-smoke: MCPR_REQUIRE_FUZZ=1, failing" >&2
    exit 1
  fi
  exit 0
fi

seconds="${FUZZ_SMOKE_SECONDS:-10}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(fuzz_targets)
start=$(date +%s)
bin="$(fuzz_build)"
built=$(date +%s)
echo "== fuzz targets built in $((built - start)) s"

scratch="$(mktemp -d)"
failed=()
for t in "${targets[@]}"; do
  mkdir -p "$scratch/$t/corpus" "$scratch/$t/artifacts" "fuzz/corpus/$t"
  echo "== fuzz smoke: $t (${seconds} s)"
  if ! "$bin/$t" "$scratch/$t/corpus" "fuzz/corpus/$t" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$scratch/$t/artifacts/" -print_final_stats=1 \
      >"$scratch/$t/log" 2>&1; then
    failed+=("$t")
    tail -n 40 "$scratch/$t/log"
    for a in "$scratch/$t/artifacts"/*; do
      [ -e "$a" ] && echo "reproduce: (cd fuzz && cargo +nightly fuzz run -O $t $a)"
    done
  else
    grep -E "^(Done|stat::number_of_executed_units)" "$scratch/$t/log" | head -n 1 || true
  fi
done
echo "== fuzz smoke took $(( $(date +%s) - start )) s (build $((built - start)) s)"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz smoke FAILED: ${failed[*]} (logs and inputs kept in $scratch)"
  exit 1
fi
rm -rf "$scratch"
echo "== fuzz smoke passed"
