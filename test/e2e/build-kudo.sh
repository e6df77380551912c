#!/usr/bin/env bash
# Build the real KUDO manager (with its admission webhook) and kubectl-kudo from
# the github.com/kudobuilder/kudo Go module at a pinned release, for the e2e
# suite (see shared/docs/real-controllers.md, "KUDO v0.19.0").
#
# The proxy serves the module by exact version only, so we `go mod download` it,
# copy the module directory out of the module cache and build in the copy with
# three edits, all made here and never committed:
#   - vbom.ml/util is no longer served: replace it by github.com/fvbommel/util
#     (the replacement Kubernetes itself used);
#   - `kubectl kudo test` (kuttl v0.8.1) does not compile on Go >= 1.18: drop
#     pkg/kudoctl/cmd/test.go and its AddCommand (nothing else uses it);
#   - cmd/manager/main.go binds its webhook on :443 of every interface and
#     metrics on :8080 and reads no flag or env for either: make it read
#     KUDO_WEBHOOK_HOST / KUDO_WEBHOOK_PORT / KUDO_METRICS_ADDR (defaults
#     127.0.0.1, 9443, 127.0.0.1:0) so the tests bind loopback only, on free ports.
#
# Output: ${PLANWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/planwatch}/kudo-v<version>/{manager,kubectl-kudo,crds/}
# (crds/: the release's own config/crds, what `kubectl kudo init` would install; copied, not committed.)
# Warm path: if all three exist, print the directory and exit 0.
# The last line on stdout is always that directory; progress goes to stderr.
#
# Env:
#   PLANWATCH_KUDO_VERSION  release to build (default 0.19.0, without "v")
#   PLANWATCH_CACHE         cache dir (default $XDG_CACHE_HOME/planwatch or ~/.cache/planwatch)
set -euo pipefail

KUDO="${PLANWATCH_KUDO_VERSION:-0.19.0}"
KUDO="${KUDO#v}"
CACHE_DIR="${PLANWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/planwatch}"
OUT="$CACHE_DIR/kudo-v$KUDO"

if [[ -x "$OUT/manager" && -x "$OUT/kubectl-kudo" && -f "$OUT/crds/kudo.dev_instances.yaml" ]]; then
  echo "$OUT"
  exit 0
fi

log() { echo "build-kudo: $*" >&2; }

if ! command -v go >/dev/null 2>&1; then
  if [[ -x /usr/local/go/bin/go ]]; then
    export PATH="/usr/local/go/bin:$PATH"
  else
    log "go toolchain not found (need Go >= 1.18 and the Go module proxy)"
    exit 1
  fi
fi

export GOWORK=off
export GOFLAGS="-buildvcs=false -mod=mod"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"

mkdir -p "$CACHE_DIR"
SRC="$CACHE_DIR/kudo-src-v$KUDO"
STAGE="$OUT.tmp.$$"
trap 'rm -rf "$STAGE"' EXIT

# `go mod download mod@version` works outside any module.
log "fetching github.com/kudobuilder/kudo@v$KUDO from the Go module proxy"
DL="$(cd "$CACHE_DIR" && go mod download -json "github.com/kudobuilder/kudo@v$KUDO")"
MODDIR="$(printf '%s\n' "$DL" | sed -n 's/^[[:space:]]*"Dir":[[:space:]]*"\(.*\)",\{0,1\}$/\1/p' | head -n1)"
if [[ -z "$MODDIR" || ! -f "$MODDIR/go.mod" ]]; then
  log "could not download github.com/kudobuilder/kudo@v$KUDO"
  exit 1
fi

copy_crds() {
  mkdir -p "$1/crds"
  cp "$MODDIR"/config/crds/kudo.dev_*.yaml "$1/crds/"
  chmod u+w "$1"/crds/*.yaml
}
if [[ -x "$OUT/manager" && -x "$OUT/kubectl-kudo" ]]; then
  copy_crds "$OUT"
  echo "$OUT"
  exit 0
fi

# A fresh copy every cold build: the edits below are not idempotent by design
# (each one checks that it applied exactly once).
rm -rf "$SRC"
cp -R "$MODDIR" "$SRC"
chmod -R u+w "$SRC"
cd "$SRC"

log "edit 1/3: vbom.ml/util => github.com/fvbommel/util"
go mod edit -replace vbom.ml/util=github.com/fvbommel/util@v0.0.0-20180919145318-efcd4e0f9787

log "edit 2/3: drop 'kubectl kudo test' (kuttl v0.8.1 does not compile on Go >= 1.18)"
rm -f pkg/kudoctl/cmd/test.go pkg/kudoctl/cmd/test_test.go
grep -q '^[[:space:]]*cmd.AddCommand(newTestCmd())$' pkg/kudoctl/cmd/root.go \
  || { log "pkg/kudoctl/cmd/root.go: newTestCmd AddCommand not found"; exit 1; }
sed -i '/^[[:space:]]*cmd.AddCommand(newTestCmd())$/d' pkg/kudoctl/cmd/root.go

log "edit 3/3: webhook and metrics on loopback, ports from the environment"
MAIN=cmd/manager/main.go
grep -q '^		SyncPeriod: syncPeriod,$' "$MAIN" \
  || { log "$MAIN: ctrl.Options SyncPeriod line not found"; exit 1; }
grep -q '^	"strings"$' "$MAIN" || { log "$MAIN: strings import not found"; exit 1; }
sed -i 's/^	"strings"$/	"strconv"\n	"strings"/' "$MAIN"
sed -i 's/^		SyncPeriod: syncPeriod,$/		SyncPeriod: syncPeriod,\n		Host:               getEnv("KUDO_WEBHOOK_HOST", "127.0.0.1"),\n		Port:               envPort("KUDO_WEBHOOK_PORT", 9443),\n		MetricsBindAddress: getEnv("KUDO_METRICS_ADDR", "127.0.0.1:0"),/' "$MAIN"
cat >>"$MAIN" <<'EOF'

// envPort reads a TCP port from the environment (added by planwatch's
// test/e2e/build-kudo.sh so the webhook binds a free loopback port).
func envPort(key string, def int) int {
	val, ok := os.LookupEnv(key)
	if !ok {
		return def
	}
	p, err := strconv.Atoi(val)
	if err != nil || p <= 0 || p > 65535 {
		log.Printf("Invalid %s=%q", key, val)
		os.Exit(1)
	}
	return p
}
EOF

LDFLAGS="-s -w -X github.com/kudobuilder/kudo/pkg/version.gitVersion=$KUDO"
mkdir -p "$STAGE"
log "building the manager (this takes a while on a cold cache)"
go build -trimpath -ldflags "$LDFLAGS" -o "$STAGE/manager" ./cmd/manager
log "building kubectl-kudo"
go build -trimpath -ldflags "$LDFLAGS" -o "$STAGE/kubectl-kudo" ./cmd/kubectl-kudo

copy_crds "$STAGE"
rm -rf "$OUT"
mv "$STAGE" "$OUT"
trap - EXIT
cd "$CACHE_DIR"
rm -rf "$SRC"
log "built $("$OUT/kubectl-kudo" version 2>/dev/null || true)"
echo "$OUT"
