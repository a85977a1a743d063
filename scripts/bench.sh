#!/usr/bin/env bash
# Benchmarks: the Rust benches (cargo bench; benches/read.rs measures the
# Rust API's small exact read, benches/blob.rs a 16 MiB blob read through
# the C ABI and the Rust API in fresh processes, benches/params.rs the
# worst 256 KiB of params a client can send, benches/subscriptions.rs one
# update decided for 10,000 subscribers and one list change for 1,000
# callers after 10 of 100,000 definitions changed, benches/embed.rs ten
# resources embedded in a tool result against ten reads, benches/observe.rs
# the small exact read with no observer and empty ones: allocations and time), the C ABI read benchmark
# (c-tests/bench_read.c, built by CMake; also the one-call request path
# against the read with its ratio, and first of all, in its fresh process,
# registering 100,000 templates through the C ABI), the C++ wrapper's
# asynchronous read against its blocking executor read (c-tests/bench_hpp.cpp,
# their ratio from one run), the Go binding's small exact read
# (bindings/go, policy in Go and native; and ReadAsync against Read on an
# executor, their ratio from one run) and the same read through a client
# session of the official Go SDK, served by the SDK's own resource handler
# and by the library through bindings/go/mcpsdk, and the same read through
# the Swift wrapper (scripts/swift-test.sh bench, in the trixie chroot, as
# multiples of the C ABI figure), and the Go read with observers (an empty
# one, the OpenTelemetry module of bindings/go/otel) against none. Prints every figure, then
# the small exact read side by side, and at the end a "== goals" section:
# every line starting with "GOAL " that any benchmark printed (a figure next
# to its goal). Nothing is asserted; a benchmark that is absent or fails is
# reported and skipped.
# Usage: scripts/bench.sh [C iterations]   (MCPR_BENCH_SKIP_CARGO=1 skips cargo bench,
#   MCPR_BENCH_SKIP_GO=1 the Go benchmarks, MCPR_BENCH_SKIP_SWIFT=1 the Swift one,
#   MCPR_BENCH_SKIP_CALLGRIND=1 scripts/read-instructions.sh, the callgrind count)
set -euo pipefail
cd "$(dirname "$0")/.."
goals_file="$(mktemp)"
cargo_log="$(mktemp)"
trap 'rm -f "$goals_file" "$cargo_log"' EXIT
collect() { # keeps the GOAL lines of a benchmark's output (read on stdin)
  grep '^GOAL ' >>"$goals_file" || true
}
if [ "${MCPR_BENCH_SKIP_CARGO:-0}" != 1 ]; then
  # Streamed as it runs, and kept for the goals.
  cargo bench 2>&1 | tee "$cargo_log" || echo "cargo bench failed (its figures so far are shown)"
  collect <"$cargo_log"
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target bench_read bench_hpp
iterations="${1:-200000}"
c_out="$(./build/bench_read "$iterations")" || echo "bench_read failed"
echo "$c_out"
printf '%s\n' "$c_out" | collect
# The same read's instructions per read (callgrind; deterministic where the
# times above are noisy), with and without empty observers.
if [ "${MCPR_BENCH_SKIP_CALLGRIND:-0}" != 1 ]; then
  ci_out="$(bash scripts/read-instructions.sh)" || echo "read-instructions failed"
  echo "$ci_out"
  printf '%s\n' "$ci_out" | collect
fi
# The C++ wrapper's asynchronous read against its blocking executor read.
hpp_out="$(./build/bench_hpp "$iterations")" || echo "bench_hpp failed"
echo "$hpp_out"
printf '%s\n' "$hpp_out" | collect

goals() {
  echo
  echo "== goals"
  if [ -s "$goals_file" ]; then
    sed 's/^GOAL /  /' "$goals_file"
  else
    echo "  (no benchmark printed a GOAL line)"
  fi
}
swift_bench() {
  [ "${MCPR_BENCH_SKIP_SWIFT:-0}" != 1 ] || return 0
  echo
  echo "== Swift wrapper (scripts/swift-test.sh bench)"
  bash scripts/swift-test.sh bench || echo "Swift benchmark failed"
}
if [ "${MCPR_BENCH_SKIP_GO:-0}" = 1 ]; then
  swift_bench
  goals
  exit 0
fi

. scripts/go-env.sh
ns() { # ns/op of the benchmark line matching $2 in $1
  printf '%s\n' "$1" | awk -v pat="$2" '$0 ~ pat { for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op" || $(i+1) == "ns/read") { print $i; exit } }'
}
c_inline="$(ns "$c_out" 'small_exact_read/inline')"
# The Go benchmark prints its small read over this C ABI figure (a GOAL).
go_out="$(cd bindings/go && MCPR_BENCH_C_INLINE_NS="$c_inline" go test -run '^$' -bench 'SmallExactRead' -benchtime "${iterations}x" .)" ||
  echo "Go binding benchmark failed"
echo "$go_out"
printf '%s\n' "$go_out" | collect
sdk_iterations=$((iterations / 10 > 1000 ? iterations / 10 : 1000))
sdk_out="$(cd bindings/go/mcpsdk && go test -run '^$' -bench 'SDKSessionSmallExactRead' -benchtime "${sdk_iterations}x" .)" ||
  echo "Go SDK benchmark failed"
echo "$sdk_out"
printf '%s\n' "$sdk_out" | collect

# Observers in Go (bindings/go/otel): no observer, an empty Go observer
# (call events; with decisions) and the OpenTelemetry module, as multiples
# of the first (docs/BEHAVIOUR.md §19).
observers_bench() {
  local out none
  out="$(cd bindings/go/otel && go test -run '^$' -bench 'SmallExactReadObserved' -benchtime "${sdk_iterations}x" .)" ||
    { echo "Go observer benchmark failed"; return 0; }
  echo
  echo "== observers, Go binding (native AllowAll, Go reader)"
  none="$(ns "$out" 'Observed/none-')"
  for v in none empty_observer empty_observer_decisions otel; do
    awk -v l="$v" -v n="$(ns "$out" "Observed/$v-")" -v b="$none" \
      'BEGIN { if (n != "" && b != "") printf "  %-40s %10.0f ns/read  %6.2fx no observer\n", l, n, n / b }'
  done
  awk -v n="$(ns "$out" 'Observed/empty_observer-')" -v b="$none" \
    'BEGIN { if (n != "" && b != "") printf "GOAL go_empty_observer_over_none %.2fx (goal <= 1.1x) %s\n", n / b, (n <= 1.1 * b ? "met" : "NOT met") }' |
    tee -a "$goals_file"
  awk -v n="$(ns "$out" 'Observed/otel-')" -v b="$none" \
    'BEGIN { if (n != "" && b != "") printf "GOAL go_otel_observer_over_none %.2fx (reported; no goal) -\n", n / b }' |
    tee -a "$goals_file"
}

row() { # label, ns
  if [ -n "$2" ] && [ -n "$c_inline" ]; then
    awk -v l="$1" -v n="$2" -v c="$c_inline" 'BEGIN { printf "  %-58s %10.0f ns/read  %6.1fx C\n", l, n, n / c }'
  else
    printf '  %-58s %10s\n' "$1" "${2:-n/a}"
  fi
}
echo
echo "== small exact read (1 KiB text, exact URI), side by side"
row "C ABI, C policy and reader (inline)" "$c_inline"
row "Go binding, Go policy and reader (3 cgo callbacks: plan-level)" "$(ns "$go_out" 'SmallExactRead/go_policy-')"
row "Go binding, the same policy per item (11 cgo callbacks)" "$(ns "$go_out" 'SmallExactRead/go_policy_per_item')"
row "Go binding, PolicyFuncs with Discover only (3 callbacks)" "$(ns "$go_out" 'SmallExactRead/go_discover_only')"
row "Go binding, native AllowAll, Go reader (1 callback)" "$(ns "$go_out" 'SmallExactRead/native_allow_all-')"
row "Go binding, the same through Request (one call, params JSON)" "$(ns "$go_out" 'SmallExactRead/native_allow_all_request')"
row "Go SDK session, the SDK's own resource handler" "$(ns "$sdk_out" 'sdk_own_handler')"
row "Go SDK session, the library through mcpsdk.Install" "$(ns "$sdk_out" 'mcpsdk_adapter')"
observers_bench
swift_bench
goals
