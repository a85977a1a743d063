#!/usr/bin/env bash
# The C stress, lifetime and asynchronous-call tests (c-tests/test_stress.c,
# test_lifetime.c, test_async.c)
# against a library whose Rust code, std included, is itself instrumented:
# AddressSanitizer (-Zsanitizer=address) and ThreadSanitizer
# (-Zsanitizer=thread), built with the nightly toolchain and -Zbuild-std for
# x86_64-unknown-linux-gnu into target/asan and target/tsan (normal builds
# are not invalidated). The C programs are compiled by gcc with the matching
# -fsanitize= and linked against the sanitized static library and the
# sanitizer runtime of the nightly toolchain (the one rustc links into its
# own sanitized programs): it matches the Rust code's instrumentation, which
# gcc 12's libtsan does not (no __tsan_memcpy/memset/memmove), and gcc's
# instrumentation of the C code uses the same runtime interface.
#
# Usage: scripts/rust-sanitizers.sh [asan] [tsan]   (default: both)
# Needs the nightly toolchain (MCPR_NIGHTLY names another one, for example a
# dated nightly) with rust-src (`rustup toolchain install
# nightly --profile minimal && rustup component add rust-src --toolchain
# nightly`) and gcc. Without them it prints a SKIPPED banner and succeeds,
# unless MCPR_REQUIRE_RUST_SANITIZERS=1 (set by .ci/run), which makes it fail.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=x86_64-unknown-linux-gnu
NIGHTLY="${MCPR_NIGHTLY:-nightly}"
TESTS=(test_stress test_lifetime test_async)
jobs="${MCPR_JOBS:-$(nproc 2>/dev/null || echo 2)}"

which=("$@")
[ ${#which[@]} -gt 0 ] || which=(asan tsan)
for w in "${which[@]}"; do
    case "$w" in
        asan | tsan) ;;
        *) echo "rust-sanitizers: unknown sanitizer '$w' (asan, tsan)" >&2; exit 2 ;;
    esac
done

skip() {
    {
        echo "################################################################"
        echo "## SKIPPED: Rust-side sanitizer runs (ASan/TSan of the library)"
        echo "## reason: $1"
        echo "## install: rustup toolchain install nightly --profile minimal"
        echo "##          rustup component add rust-src --toolchain nightly"
        echo "################################################################"
    } >&2
    if [ "${MCPR_REQUIRE_RUST_SANITIZERS:-0}" = 1 ]; then
        echo "rust-sanitizers: MCPR_REQUIRE_RUST_SANITIZERS=1, failing" >&2
        exit 1
    fi
    exit 0
}

[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || skip "only set up for $TARGET (this is $(uname -s)-$(uname -m))"
command -v gcc >/dev/null 2>&1 || skip "gcc not installed"
# (RUSTUP_AUTO_INSTALL=0: probe, never download; .ci/run installs it.)
RUSTUP_AUTO_INSTALL=0 cargo "+$NIGHTLY" --version >/dev/null 2>&1 || skip "the $NIGHTLY toolchain is not installed"
rustup component list --toolchain "$NIGHTLY" --installed 2>/dev/null | grep -q '^rust-src' ||
    skip "rust-src is not installed for the $NIGHTLY toolchain"
RT_DIR="$(rustc "+$NIGHTLY" --print sysroot)/lib/rustlib/$TARGET/lib"

run_one() {
    local name="$1" san="$2" start=$SECONDS
    local dir="target/$name"
    local lib="$dir/$TARGET/release/libmcp_resources.a"
    echo "== $name: library (cargo +$NIGHTLY, -Zsanitizer=$san, -Zbuild-std) into $dir"
    # -Zbuild-std rebuilds std with the same flag, so that its atomics and
    # locks are instrumented too (an uninstrumented std hides its
    # synchronisation from TSan and reports false races).
    env -u CARGO_ENCODED_RUSTFLAGS RUSTFLAGS="-Zsanitizer=$san" \
        cargo "+$NIGHTLY" rustc --quiet -Zbuild-std --target "$TARGET" --target-dir "$dir" \
        --release --lib --crate-type staticlib --jobs "$jobs"
    local built=$((SECONDS - start))
    local rt="$RT_DIR/librustc-nightly_rt.$name.a"
    if [ ! -f "$rt" ]; then
        echo "rust-sanitizers: the $NIGHTLY toolchain has no $name runtime ($rt)" >&2
        exit 1
    fi
    mkdir -p "$dir/c-tests"
    local env_run=()
    if [ "$name" = asan ]; then
        env_run=(ASAN_OPTIONS=detect_leaks=1:halt_on_error=1)
    else
        # TSan slows everything several times: the tests scale their timing
        # margins by MCPR_TEST_SLOW, as under valgrind. No suppressions.
        env_run=(TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" MCPR_TEST_SLOW=1)
    fi
    local cflags=(-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -g -O1
        -fno-omit-frame-pointer -fsanitize="$san" -Iinclude)
    gcc "${cflags[@]}" -c c-tests/harness.c -o "$dir/c-tests/harness.o"
    for t in "${TESTS[@]}"; do
        gcc "${cflags[@]}" -c "c-tests/$t.c" -o "$dir/c-tests/$t.o"
        # No -fsanitize= when linking: that would add gcc's runtime too.
        # -rdynamic exports the runtime's interceptors to shared libraries.
        gcc -pie -rdynamic "$dir/c-tests/$t.o" "$dir/c-tests/harness.o" "$lib" \
            -Wl,--whole-archive "$rt" -Wl,--no-whole-archive \
            -lpthread -ldl -lm -lrt -o "$dir/c-tests/$t"
        echo "-- $name: $t"
        env "${env_run[@]}" "$dir/c-tests/$t"
    done
    echo "== $name: passed (library build ${built}s, total $((SECONDS - start))s)"
}

for w in "${which[@]}"; do
    case "$w" in
        asan) run_one asan address ;;
        tsan) run_one tsan thread ;;
    esac
done
echo "== Rust-side sanitizer runs passed: ${which[*]}"
