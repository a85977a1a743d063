# Sourced by the Go scripts: builds the library through CMake (reusing
# build/), installs it into build/go-prefix the documented way and points
# pkg-config there (an absolute path: cgo accepts archive paths only when
# they are absolute). Exports MCPR_GO_PREFIX and PKG_CONFIG_PATH.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target mcp_resources_cargo
MCPR_GO_PREFIX="$(pwd)/build/go-prefix"
cmake --install build --prefix "$MCPR_GO_PREFIX" >/dev/null
export MCPR_GO_PREFIX
export PKG_CONFIG_PATH="$MCPR_GO_PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
