#!/usr/bin/env bash
# Build a real kube-apiserver from the k8s.io/kubernetes Go module at a pinned
# release, without a Kubernetes checkout (see shared/docs/real-apiserver.md §2).
#
# k8s.io/kubernetes' go.mod requires every staging module (k8s.io/api, ...) at
# v0.0.0 and maps it to ./staging/... with replace directives, which only apply
# in the main module. So we build from a tiny throw-away "tools" module whose
# go.mod replaces each staging module by its published v0.X.Y tag. The list of
# staging modules is derived from the release's own go.mod, fetched through the
# Go module proxy (`go mod download -json`).
#
# Output: ${PLANWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/planwatch}/kube-apiserver-v<version>
# Warm path: if the binary already exists, print its path and exit 0.
# The last line on stdout is always the binary path; progress goes to stderr.
#
# Env:
#   PLANWATCH_K8S_VERSION  release to build (default 1.36.3, without "v")
#   PLANWATCH_CACHE        cache dir (default $XDG_CACHE_HOME/planwatch or ~/.cache/planwatch)
set -euo pipefail

K8S="${PLANWATCH_K8S_VERSION:-1.36.3}"
K8S="${K8S#v}"
CACHE_DIR="${PLANWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/planwatch}"
OUT="$CACHE_DIR/kube-apiserver-v$K8S"

if [[ -x "$OUT" ]]; then
  echo "$OUT"
  exit 0
fi

log() { echo "build-kube-apiserver: $*" >&2; }

if ! command -v go >/dev/null 2>&1; then
  if [[ -x /usr/local/go/bin/go ]]; then
    export PATH="/usr/local/go/bin:$PATH"
  else
    log "go toolchain not found (need Go >= 1.26 and the Go module proxy)"
    exit 1
  fi
fi

MINOR="${K8S#1.}"        # 36.3
MINOR="${MINOR%%.*}"     # 36
STAGE="v0.${K8S#1.}"     # v0.36.3

mkdir -p "$CACHE_DIR"
TOOLS="$CACHE_DIR/tools-v$K8S"
mkdir -p "$TOOLS"
cd "$TOOLS"

# Never let the tools module be affected by a surrounding go.work or vendor dir.
export GOWORK=off
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=mod"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"

if [[ ! -f go.mod ]]; then
  log "creating tools module in $TOOLS"
  go mod init example.invalid/planwatch-kube-apiserver-tool >/dev/null 2>&1
fi

log "fetching go.mod of k8s.io/kubernetes@v$K8S"
GOMOD="$(go mod download -json "k8s.io/kubernetes@v$K8S" \
  | sed -n 's/^[[:space:]]*"GoMod":[[:space:]]*"\(.*\)",\{0,1\}$/\1/p' | head -n1)"
if [[ -z "$GOMOD" || ! -f "$GOMOD" ]]; then
  log "could not download k8s.io/kubernetes@v$K8S"
  exit 1
fi

STAGING=()
while IFS= read -r m; do
  [[ -n "$m" ]] && STAGING+=("$m")
done < <(sed -n 's#^[[:space:]]*\(replace[[:space:]]\{1,\}\)\{0,1\}\(k8s\.io/[A-Za-z0-9._-]*\)[[:space:]]*=>[[:space:]]*\./staging/.*#\2#p' "$GOMOD" | sort -u)
if [[ ${#STAGING[@]} -eq 0 ]]; then
  log "no staging replace directives found in $GOMOD"
  exit 1
fi
log "replacing ${#STAGING[@]} staging modules by $STAGE: ${STAGING[*]}"

EDITS=()
for m in "${STAGING[@]}"; do
  EDITS+=("-replace=$m=$m@$STAGE")
done
go mod edit "${EDITS[@]}"

log "resolving k8s.io/kubernetes/cmd/kube-apiserver@v$K8S"
go get -tool "k8s.io/kubernetes/cmd/kube-apiserver@v$K8S" >&2

TMP_OUT="$OUT.tmp.$$"
trap 'rm -f "$TMP_OUT"' EXIT
log "building (this takes a while on a cold cache)"
go build -trimpath -o "$TMP_OUT" \
  -ldflags "-s -w \
    -X k8s.io/component-base/version.gitVersion=v$K8S \
    -X k8s.io/component-base/version.gitMajor=1 \
    -X k8s.io/component-base/version.gitMinor=$MINOR \
    -X k8s.io/component-base/version.gitTreeState=clean \
    -X k8s.io/client-go/pkg/version.gitVersion=v$K8S \
    -X k8s.io/client-go/pkg/version.gitMajor=1 \
    -X k8s.io/client-go/pkg/version.gitMinor=$MINOR" \
  k8s.io/kubernetes/cmd/kube-apiserver
mv -f "$TMP_OUT" "$OUT"
trap - EXIT
log "built $("$OUT" --version 2>/dev/null || true)"
echo "$OUT"
