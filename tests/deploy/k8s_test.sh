#!/usr/bin/env bash
# The Kubernetes manifests (deploy/k8s, deploy/agones) checked offline: tests/deploy/k8s/validate.mjs, with the
# schemas of the npm package kubernetes-models (installed here from its lockfile when missing or
# changed) and the flags plateau-server says it knows.
# Usage: k8s_test.sh REPO_ROOT SERVER
set -euo pipefail
ROOT=$1 SERVER=$2
cd "$ROOT/tests/deploy/k8s"
stamp=node_modules/.installed-lock
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  cp package-lock.json "$stamp"
fi
help=$(mktemp)
trap 'rm -f "$help"' EXIT
"$SERVER" --help >"$help"
node validate.mjs "$help" "$ROOT/deploy/k8s" "$ROOT/deploy/agones"
