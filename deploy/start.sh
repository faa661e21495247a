#!/usr/bin/env bash
# Command 1: install what is missing, build, and start the server on 0.0.0.0:8080 with an SQLite
# file (plateau.db in the repository root) as its only storage. Extra arguments go to the server.
# What is already installed and built is reused (see build.sh), so a second start needs no network.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install-deps.sh
bash deploy/build.sh --no-tests
exec build/bin/plateau-server --bind 0.0.0.0 --port 8080 --db plateau.db --static clients/web/dist "$@"
