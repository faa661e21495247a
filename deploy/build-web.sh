#!/usr/bin/env bash
# Builds the web client into clients/web/dist: `npm ci` when what pins its packages changed, then
# `npm run build` when anything the build reads changed; otherwise nothing. deploy/build.sh and
# each browser test (tests/browser/run.sh) call it, so the client is built once however many tests
# start; a lock keeps two callers from building at the same time.
set -euo pipefail
cd "$(dirname "$0")/../clients/web"
# The lock is on the folder itself: `npm ci` deletes node_modules/, and vite dist/.
exec 9<.
flock 9

# Both stamps live in node_modules/, which `npm ci` recreates: a new install always brings a new
# build. The packages are installed again only when what pins them (or the Node running them)
# changed.
lock_hash="$({ cat package.json package-lock.json; node --version; } | sha256sum | cut -d' ' -f1)"
lock_stamp=node_modules/.plateau-lock.sha256
if [ -d node_modules ] && [ "$(cat "$lock_stamp" 2>/dev/null)" = "$lock_hash" ]; then
  echo "Web client packages up to date."
else
  npm ci --no-audit --no-fund
  echo "$lock_hash" >"$lock_stamp"
fi
# Rebuilt only when something `npm run build` reads changed, the .proto files it imports as text
# included. Hashed before the build, so an edit made while it runs shows up next time.
inputs=(src scripts index.html package.json package-lock.json tsconfig.json vite.config.ts ../../proto)
if [ -d public ]; then inputs+=(public); fi
dist_hash="$(find "${inputs[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum |
  sha256sum | cut -d' ' -f1)"
dist_stamp=node_modules/.plateau-dist.sha256
if [ -f dist/index.html ] && [ "$(cat "$dist_stamp" 2>/dev/null)" = "$dist_hash" ]; then
  echo "Web client up to date (clients/web/dist)."
else
  npm run build
  echo "$dist_hash" >"$dist_stamp"
fi
