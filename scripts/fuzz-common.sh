# Shared by scripts/fuzz-smoke.sh and scripts/fuzz.sh (sourced, not run):
# finds the nightly toolchain and cargo-fuzz, lists the fuzz targets and
# builds them once.

export PATH="$HOME/.cargo/bin:$PATH"

# Prints why fuzzing cannot run here, or nothing when it can.
fuzz_missing() {
  if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "the nightly toolchain is missing (rustup toolchain install nightly --profile minimal)"
  elif ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is missing (cargo install cargo-fuzz --locked)"
  fi
}

# The fuzz targets: every [[bin]] of fuzz/Cargo.toml.
fuzz_targets() {
  (cd fuzz && cargo +nightly fuzz list)
}

# Builds every target once (release, debug assertions on) and prints the
# directory holding the binaries.
fuzz_build() {
  local triple
  triple="$(rustc +nightly -vV | sed -n 's/^host: //p')"
  (cd fuzz && cargo +nightly fuzz build -O --debug-assertions >&2)
  echo "$PWD/fuzz/target/$triple/release"
}
