#!/usr/bin/env bash
# Longer fuzzing runs: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# (default 300 seconds, every target in fuzz/). Each target starts from its
# committed seed corpus (fuzz/corpus/<target>/) and from the inputs earlier
# runs kept in fuzz/corpus-extra/<target>/ (git-ignored); after the run the
# new inputs are merged into corpus-extra, keeping only those that add
# coverage. Crashes are written to fuzz/artifacts/<target>/ with the command
# that reproduces them; the script exits non-zero if any target failed.
# To add an input to the committed seeds, copy it into fuzz/corpus/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fuzz-common.sh

missing="$(fuzz_missing)"
if [ -n "$missing" ]; then
  echo "fuzzing needs nightly and cargo-fuzz: $missing" >&2
  exit 2
fi
seconds="${1:-300}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(fuzz_targets)
bin="$(fuzz_build)"

failed=()
for t in "${targets[@]}"; do
  extra="fuzz/corpus-extra/$t"
  work="fuzz/corpus-extra/.$t.new"
  mkdir -p "$extra" "$work" "fuzz/artifacts/$t" "fuzz/corpus/$t"
  echo "== fuzzing $t for $seconds s"
  if ! "$bin/$t" "$work" "$extra" "fuzz/corpus/$t" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="fuzz/artifacts/$t/" -print_final_stats=1; then
    failed+=("$t")
    echo "reproduce: (cd fuzz && cargo +nightly fuzz run -O $t artifacts/$t/<crash file>)"
  fi
  # Keep what adds coverage beyond the seeds and the kept inputs.
  merged="fuzz/corpus-extra/.$t.merged"
  rm -rf "$merged"
  mkdir -p "$merged"
  "$bin/$t" -merge=1 "$merged" "$extra" "$work" >/dev/null 2>&1 || true
  if [ -n "$(ls -A "$merged")" ] || [ -z "$(ls -A "$extra")" ]; then
    rm -rf "$extra"
    mv "$merged" "$extra"
  else
    rm -rf "$merged"
  fi
  rm -rf "$work"
  echo "== $t: $(ls "$extra" | wc -l) inputs kept in $extra"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found failures in: ${failed[*]}" >&2
  exit 1
fi
