#!/usr/bin/env bash
# The Go suites: builds and installs the library (scripts/go-env.sh), then
# for the three modules (bindings/go, bindings/go/mcpsdk and the
# OpenTelemetry module bindings/go/otel): go vet, go test
# -race, and a run built with GOEXPERIMENT=cgocheck2; the binding again
# linked against the shared library (-tags mcpr_dynamic, with an rpath);
# then the end-to-end run with the official Python and TypeScript clients
# (scripts/go-e2e.sh). The Go module cache is filled from the module proxy
# (go mod download). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/go-env.sh

for mod in bindings/go bindings/go/mcpsdk bindings/go/otel; do
  (
    cd "$mod"
    go mod download
    echo "== go vet ($mod)"
    go vet ./...
    echo "== go test -race ($mod, static library)"
    go test -race -count=1 ./...
    echo "== go test with GOEXPERIMENT=cgocheck2 ($mod)"
    GOEXPERIMENT=cgocheck2 go test -count=1 ./...
  )
done
echo "== go test -tags mcpr_dynamic (bindings/go, shared library with rpath)"
(cd bindings/go && CGO_LDFLAGS="-Wl,-rpath,$MCPR_GO_PREFIX/lib" go test -tags mcpr_dynamic -count=1 ./...)

bash scripts/go-e2e.sh
