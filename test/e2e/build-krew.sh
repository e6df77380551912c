#!/usr/bin/env bash
# Build the real krew (and krew's own manifest validator) from the sigs.k8s.io/krew Go module at a pinned
# release, so the e2e suite installs planwatch's release archive with krew itself instead of a copy of its rules.
#
# Output: ${PLANWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/planwatch}/krew-v<version>/{krew,validate-krew-manifest}
# Warm path: if both binaries exist, print the folder and exit 0.
# The last line on stdout is always the folder; progress goes to stderr.
#
# Env:
#   PLANWATCH_KREW_VERSION  release to build (default 0.4.3, without "v")
#   PLANWATCH_CACHE         cache dir (default $XDG_CACHE_HOME/planwatch or ~/.cache/planwatch)
set -euo pipefail

KREW="${PLANWATCH_KREW_VERSION:-0.4.3}"
KREW="${KREW#v}"
CACHE_DIR="${PLANWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/planwatch}"
OUT="$CACHE_DIR/krew-v$KREW"

if [[ -x "$OUT/krew" && -x "$OUT/validate-krew-manifest" ]]; then
  echo "$OUT"
  exit 0
fi

log() { echo "build-krew: $*" >&2; }

if ! command -v go >/dev/null 2>&1; then
  if [[ -x /usr/local/go/bin/go ]]; then
    export PATH="/usr/local/go/bin:$PATH"
  else
    log "go toolchain not found (need Go and the Go module proxy)"
    exit 1
  fi
fi

export GOWORK=off
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
mkdir -p "$CACHE_DIR"
TMP="$(mktemp -d "$CACHE_DIR/krew-build.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
log "building sigs.k8s.io/krew v$KREW (krew, validate-krew-manifest)"
# `go install pkg@version` builds in module mode from the proxy, outside any module: the release's own go.mod.
GOBIN="$TMP/bin" go install -trimpath \
  "sigs.k8s.io/krew/cmd/krew@v$KREW" \
  "sigs.k8s.io/krew/cmd/validate-krew-manifest@v$KREW" >&2
mkdir -p "$OUT"
mv -f "$TMP/bin/krew" "$TMP/bin/validate-krew-manifest" "$OUT/"
log "built $("$OUT/krew" version 2>/dev/null | grep -i gitTag || true)"
echo "$OUT"
