# Sourced by the Go scripts: builds the library through CMake (reusing
# build/), installs it into build/go-prefix the documented way and points
# pkg-config there (an absolute path: cgo accepts archive paths only when
# they are absolute). Exports MCPR_GO_PREFIX, PKG_CONFIG_PATH and
# CGO_CFLAGS (with the header's hash, see below).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target mcp_resources_cargo
MCPR_GO_PREFIX="$(pwd)/build/go-prefix"
cmake --install build --prefix "$MCPR_GO_PREFIX" >/dev/null
export MCPR_GO_PREFIX
# Go's build cache does not hash headers found through -I, so a changed
# header (a struct that grew a field) would leave stale cgo objects behind:
# the header's hash in CGO_CFLAGS is part of the cache key.
MCPR_HEADER_HASH="$(sha256sum include/mcp_resources.h | cut -c1-16)"
export CGO_CFLAGS="${CGO_CFLAGS:--O2 -g} -DMCPR_HEADER_SHA256_PREFIX=$MCPR_HEADER_HASH"
export PKG_CONFIG_PATH="$MCPR_GO_PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
