#!/usr/bin/env bash
# Install the Debian packages the test suites need: etcd (server + etcdctl) and
# openssl for the e2e harness; fish and zsh so test/cli/completion.test.ts runs
# the completion scripts in the real shells (without them it skips those cases). Idempotent: exits at once when everything is already there.
set -euo pipefail

need=()
command -v etcd >/dev/null 2>&1 || need+=(etcd-server)
command -v etcdctl >/dev/null 2>&1 || need+=(etcd-client)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v fish >/dev/null 2>&1 || need+=(fish)
command -v zsh >/dev/null 2>&1 || need+=(zsh)

if [[ ${#need[@]} -eq 0 ]]; then
  exit 0
fi

SUDO=()
if [[ "$(id -u)" -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo -n); else
    echo "install-deps: need root (or sudo) to install: ${need[*]}" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
# Only refresh the package lists when apt does not know the packages yet.
if ! apt-cache show "${need[@]}" >/dev/null 2>&1; then
  "${SUDO[@]}" apt-get update -qq >&2
fi
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
