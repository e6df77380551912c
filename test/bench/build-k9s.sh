#!/usr/bin/env bash
# k9s for the bench's side-by-side on a real kube-apiserver (npm run bench -- --k9s): built with
# `go install github.com/derailed/k9s@v<version>` through the Go module proxy, and cached by version next to
# the kube-apiserver the e2e harness builds (test/e2e/build-kube-apiserver.sh). A build takes minutes.
#
# Output: ${PLANWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/planwatch}/k9s-v<version>
# Warm path: if the binary already exists, print its path and exit 0.
# The last line on stdout is the binary path; progress goes to stderr. Exit 2: no Go toolchain.
#
# Env:
#   PLANWATCH_K9S_VERSION  release to build (default 0.50.16, without "v")
#   PLANWATCH_CACHE        cache dir (default $XDG_CACHE_HOME/planwatch or ~/.cache/planwatch)
set -euo pipefail

VERSION="${PLANWATCH_K9S_VERSION:-0.50.16}"
VERSION="${VERSION#v}"
CACHE_DIR="${PLANWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/planwatch}"
OUT="$CACHE_DIR/k9s-v$VERSION"

if [[ -x "$OUT" ]]; then
  echo "$OUT"
  exit 0
fi

log() { echo "build-k9s: $*" >&2; }

if ! command -v go >/dev/null 2>&1; then
  if [[ -x /usr/local/go/bin/go ]]; then
    export PATH="/usr/local/go/bin:$PATH"
  else
    log "no Go toolchain: k9s is left out"
    exit 2
  fi
fi

mkdir -p "$CACHE_DIR"
BUILD="$(mktemp -d "$CACHE_DIR/k9s-build.XXXXXX")"
trap 'rm -rf "$BUILD"' EXIT
log "go install github.com/derailed/k9s@v$VERSION (minutes)"
# Outside any module: never let a surrounding go.work or GOFLAGS change the build.
(cd "$BUILD" && GOWORK=off GOFLAGS= GOTOOLCHAIN="${GOTOOLCHAIN:-local}" GOBIN="$BUILD/bin" go install "github.com/derailed/k9s@v$VERSION")
mv "$BUILD/bin/k9s" "$OUT"
echo "$OUT"
