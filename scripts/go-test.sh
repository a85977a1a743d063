#!/usr/bin/env bash
# The Go suites: builds and installs the library (scripts/go-env.sh), then
# for the binding (bindings/go): go vet, go test -race, a run built with
# GOEXPERIMENT=cgocheck2, and a run linked against the shared library
# (-tags mcpr_dynamic, with an rpath). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/go-env.sh

cd bindings/go
echo "== go vet (bindings/go)"
go vet ./...
echo "== go test -race (bindings/go, static library)"
go test -race -count=1 ./...
echo "== go test with GOEXPERIMENT=cgocheck2 (bindings/go)"
GOEXPERIMENT=cgocheck2 go test -count=1 ./...
echo "== go test -tags mcpr_dynamic (bindings/go, shared library with rpath)"
CGO_LDFLAGS="-Wl,-rpath,$MCPR_GO_PREFIX/lib" go test -tags mcpr_dynamic -count=1 ./...
