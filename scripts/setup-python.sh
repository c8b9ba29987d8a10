#!/usr/bin/env bash
# Creates .venv-py/ with the Python SDK (python/, editable) and its test deps. Idempotent: when the
# venv already matches python/pyproject.toml it only checks the imports (well under a second).
#
# Route 1: `pip install -e python[test]` with pip as configured on this machine (its configured
#          index; the public index is not reachable here).
# Route 2 (if route 1 fails): Debian's python3-* packages via apt-get, a venv on /usr/bin/python3
#          with --system-site-packages, and the SDK put on the path by a .pth file (no build step).
# Usage: bash scripts/setup-python.sh  → prints the venv's python path on the last line.
# Env: STATEWIRE_VENV (default .venv-py), STATEWIRE_PY_ROUTE=pip|debian (force a route), PYTHON.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${STATEWIRE_VENV:-$ROOT/.venv-py}"
ROUTE="${STATEWIRE_PY_ROUTE:-auto}" # auto | pip | debian (pip/debian force one route, to check it)
PY="$VENV/bin/python"
STAMP="$VENV/.statewire-stamp"
IMPORTS="import statewire_nodes, fastapi, uvicorn, msgpack, numpy, PIL, httpx, pytest"
want="$(cat "$ROOT/python/pyproject.toml" "$0" | sha256sum | cut -d' ' -f1)"

say() { echo "setup-python: $*" >&2; }

ready() {
  [ -x "$PY" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$want" ] && "$PY" -c "$IMPORTS" 2>/dev/null
}

if ready; then
  say "ready ($VENV)"
  echo "$PY"
  exit 0
fi

via_pip() {
  local base="${PYTHON:-python3}"
  rm -rf "$VENV"
  "$base" -m venv "$VENV" || { say "'$base -m venv' failed (on Debian: apt-get install python3-venv)"; return 1; }
  local args=(--quiet --retries 0)
  # Where pip is configured with only local (file://) extra indexes and no index-url, make the first
  # one the index: the default public index is unreachable here and each lookup costs a DNS failure.
  if [ -z "${PIP_INDEX_URL:-}" ] && ! "$PY" -m pip config get global.index-url >/dev/null 2>&1; then
    local first
    first="$("$PY" -m pip config get global.extra-index-url 2>/dev/null | tr -s ' \n' '\n' | head -n1 || true)"
    case "$first" in file://*) args+=(--index-url "$first") ;; esac
  fi
  # pip warns once per package missing from one of several configured indexes: noise, not a problem.
  "$PY" -m pip install "${args[@]}" -e "$ROOT/python[test]" 2> >(grep -v 'is ignored: it is neither' >&2) ||
    { say "pip install failed"; return 1; }
}

via_debian() {
  if ! command -v apt-get >/dev/null || [ "$(id -u)" != 0 ]; then
    say "cannot fall back to Debian packages (needs apt-get as root)"
    return 1
  fi
  say "falling back to Debian's python3-* packages"
  apt-get update -qq >/dev/null || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-fastapi python3-uvicorn \
    python3-msgpack python3-numpy python3-pil python3-httpx python3-pytest >/dev/null || return 1
  rm -rf "$VENV"
  /usr/bin/python3 -m venv --system-site-packages "$VENV" || return 1
  local site
  site="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  echo "$ROOT/python" >"$site/statewire-nodes.pth"
}

start=$(date +%s)
case "$ROUTE" in
  pip) via_pip ;;
  debian) via_debian ;;
  *) via_pip || via_debian ;;
esac && ok=1 || ok=0
if [ "$ok" = 1 ]; then
  if "$PY" -c "$IMPORTS"; then
    echo "$want" >"$STAMP"
    say "installed in $(( $(date +%s) - start )) s ($VENV)"
    echo "$PY"
    exit 0
  fi
fi
say "FAILED: no working Python environment for the SDK. Python demos and tests cannot run;"
say "the TypeScript app (npm start) does not need Python."
exit 1
