#!/usr/bin/env bash
# Installs what Plateau needs to build, run and test on Debian 12, skipping what is present.
# Debian packages only (the web client's packages come from the npm registry, pinned by its
# lockfile, and are installed by build.sh).
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  build-essential cmake ninja-build pkg-config git ca-certificates curl
  libboost1.81-all-dev
  libprotobuf-dev protobuf-compiler
  libspdlog-dev
  libsqlite3-dev sqlite3 libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  nodejs npm
  chromium fonts-noto-color-emoji
)

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
