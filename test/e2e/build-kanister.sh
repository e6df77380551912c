#!/usr/bin/env bash
# Build the real Kanister controller (./cmd/controller of kanisterio/kanister) at a pinned commit, BY HAND.
#
# Not run by CI and not by the e2e suite: the Go module proxy refuses github.com/kanisterio/kanister at every
# version (commit pseudo-versions included), so the source comes from a git copy of the repository and only the
# dependencies come from the proxy. Its binary is used to RECORD the controller's behaviour
# (scripts/record-kanister.mjs); the recordings are committed as fixtures and replayed by the unit tests
# (test/fixtures/kanister-recorded/README.md). See shared/docs/real-controllers.md, "Kanister controller".
#
# The build is a `git archive` of the commit with four edits, all made here and never committed:
#   - the github.com/graymeta/stow replace names a kastenhq/stow version the proxy refuses: point it at the
#     served v0.2.6-kasten.1.0.20250930185039-ccb63ada4a21 (GONOSUMDB=github.com/kastenhq/stow);
#   - that older stow lacks the constant stowaz.ConfigSASToken (pkg/objectstore/objectstore.go): use its string key;
#   - out of cluster: pkg/kancontroller/kancontroller.go's rest.InClusterConfig() becomes Kanister's own
#     kube.LoadConfig() (KUBECONFIG, else in-cluster);
#   - pkg/handler/handler.go's health server (and the webhook manager's probe address) bind 127.0.0.1, not every
#     interface — loopback only.
# None of them touches the ActionSet logic.
#
# Output: ${PLANWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/planwatch}/kanister-<first 7 of the commit>/controller
# Warm path: if it exists, print the directory and exit 0. The last line on stdout is always that directory;
# progress goes to stderr. ~25-50 min on 2 busy cores, a ~150 MB binary.
#
# Env:
#   PLANWATCH_KANISTER_COMMIT  commit to build (default 534f1523115c30664b519556601b1b2db7f02882, the recordings')
#   PLANWATCH_KANISTER_GIT     a git directory (bare or not) holding that commit; default $CACHE/kanister.git,
#                              cloned bare from https://github.com/kanisterio/kanister.git when missing
#   PLANWATCH_CACHE            cache dir (default $XDG_CACHE_HOME/planwatch or ~/.cache/planwatch)
set -euo pipefail

COMMIT="${PLANWATCH_KANISTER_COMMIT:-534f1523115c30664b519556601b1b2db7f02882}"
CACHE_DIR="${PLANWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/planwatch}"
OUT="$CACHE_DIR/kanister-${COMMIT:0:7}"

if [[ -x "$OUT/controller" ]]; then
  echo "$OUT"
  exit 0
fi

log() { echo "build-kanister: $*" >&2; }

if [[ ! "$COMMIT" =~ ^[0-9a-f]{40}$ ]]; then
  log "PLANWATCH_KANISTER_COMMIT must be a full 40-hex commit, got '$COMMIT'"
  exit 1
fi
if ! command -v go >/dev/null 2>&1; then
  if [[ -x /usr/local/go/bin/go ]]; then
    export PATH="/usr/local/go/bin:$PATH"
  else
    log "go toolchain not found (need Go >= 1.26 and the Go module proxy)"
    exit 1
  fi
fi

export GOWORK=off
export GOFLAGS="-buildvcs=false -mod=mod"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
export GONOSUMDB="${GONOSUMDB:+$GONOSUMDB,}github.com/kastenhq/stow"

mkdir -p "$CACHE_DIR"
GITDIR="${PLANWATCH_KANISTER_GIT:-$CACHE_DIR/kanister.git}"
if [[ ! -e "$GITDIR" ]]; then
  log "cloning https://github.com/kanisterio/kanister.git (bare) into $GITDIR"
  git clone --bare --quiet https://github.com/kanisterio/kanister.git "$GITDIR"
fi
if [[ "$(git --git-dir="$GITDIR" cat-file -t "$COMMIT" 2>/dev/null || true)" != commit ]]; then
  # a non-bare checkout: its git dir is .git
  if [[ -d "$GITDIR/.git" && "$(git --git-dir="$GITDIR/.git" cat-file -t "$COMMIT" 2>/dev/null || true)" == commit ]]; then
    GITDIR="$GITDIR/.git"
  else
    log "commit $COMMIT is not in $GITDIR (set PLANWATCH_KANISTER_GIT to a copy of kanisterio/kanister that has it)"
    exit 1
  fi
fi

SRC="$CACHE_DIR/kanister-src-${COMMIT:0:7}"
STAGE="$OUT.tmp.$$"
trap 'rm -rf "$STAGE"' EXIT

# A fresh tree every cold build: each edit below checks that it applied exactly once.
rm -rf "$SRC"
mkdir -p "$SRC"
log "extracting $COMMIT from $GITDIR"
git --git-dir="$GITDIR" archive "$COMMIT" | tar -x -C "$SRC"
cd "$SRC"

# replace_once FILE FIXED-OLD FIXED-NEW: the old text must occur exactly once.
replace_once() {
  local file="$1" old="$2" new="$3" n
  n="$(grep -cF -- "$old" "$file" || true)"
  if [[ "$n" != 1 ]]; then
    log "$file: expected exactly one '$old', found $n"
    exit 1
  fi
  OLD="$old" NEW="$new" perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$file"
}

log "edit 1/4: github.com/graymeta/stow => a kastenhq/stow version the proxy serves"
grep -q '^	github.com/graymeta/stow => github.com/kastenhq/stow ' go.mod \
  || { log "go.mod: the graymeta/stow replace not found"; exit 1; }
go mod edit -replace github.com/graymeta/stow=github.com/kastenhq/stow@v0.2.6-kasten.1.0.20250930185039-ccb63ada4a21

log "edit 2/4: stowaz.ConfigSASToken (absent from that stow) => its string key"
replace_once pkg/objectstore/objectstore.go 'config[stowaz.ConfigSASToken]' 'config["sastoken"]'

log "edit 3/4: out of cluster, rest.InClusterConfig() => kube.LoadConfig() (KUBECONFIG)"
replace_once pkg/kancontroller/kancontroller.go 'config, err := rest.InClusterConfig()' 'config, err := kube.LoadConfig()'

log "edit 4/4: the health server binds 127.0.0.1"
replace_once pkg/handler/handler.go 'Addr: fmt.Sprintf(":%s", getHealthAddr())' 'Addr: fmt.Sprintf("127.0.0.1:%s", getHealthAddr())'
replace_once pkg/handler/handler.go 'HealthProbeBindAddress: fmt.Sprintf(":%s", getHealthAddr())' \
  'HealthProbeBindAddress: fmt.Sprintf("127.0.0.1:%s", getHealthAddr())'

LDFLAGS="-s -w -X github.com/kanisterio/kanister/pkg/version.GitCommit=$COMMIT"
mkdir -p "$STAGE"
log "building ./cmd/controller (this takes a while on a cold cache)"
go build -trimpath -ldflags "$LDFLAGS" -o "$STAGE/controller" ./cmd/controller
cat >"$STAGE/BUILD-INFO" <<EOF
kanisterio/kanister $COMMIT ./cmd/controller, built by planwatch test/e2e/build-kanister.sh with $(go version)
edits: graymeta/stow => kastenhq/stow v0.2.6-kasten.1.0.20250930185039-ccb63ada4a21; stowaz.ConfigSASToken => "sastoken";
rest.InClusterConfig() => kube.LoadConfig(); health server on 127.0.0.1
EOF

rm -rf "$OUT"
mv "$STAGE" "$OUT"
trap - EXIT
cd "$CACHE_DIR"
rm -rf "$SRC"
log "built $OUT/controller"
echo "$OUT"
