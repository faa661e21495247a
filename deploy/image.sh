#!/usr/bin/env bash
# Builds Plateau's container image (deploy/Containerfile) and checks it: a container of it must
# answer /healthz and serve the web client. No image registry is needed: the Debian 12 base is
# made here with debootstrap from Debian's mirror (once; kept as localhost/plateau-debian:12).
# Minutes and a few GB of disk the first time: it is not part of the test command.
#   deploy/image.sh [TAG]      (default plateau:0.1)
set -euo pipefail
cd "$(dirname "$0")/.."
TAG=${1:-plateau:0.1}
BASE=localhost/plateau-debian:12
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if ! command -v podman >/dev/null || ! command -v debootstrap >/dev/null; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    podman buildah debootstrap uidmap slirp4netns fuse-overlayfs
fi

if ! podman image exists "$BASE"; then
  root=$(mktemp -d)
  trap '$SUDO rm -rf "$root"' EXIT
  echo "Making the Debian 12 base image (debootstrap)..."
  $SUDO debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
  $SUDO tar -C "$root" -c . | podman import - "$BASE" >/dev/null
fi

# chroot isolation: the build's RUN steps need no cgroups or namespaces of their own, so it also
# builds inside a container or a CI machine.
# The npm registry is reached with the certificate authorities this machine's npm trusts (a
# proxy's own, say), mounted into the build's steps only: nothing of them stays in the image.
ca_args=()
cafile=$(npm config get cafile 2>/dev/null || true)
if [ -n "$cafile" ] && [ "$cafile" != null ] && [ -r "$cafile" ]; then
  ca_args=(--volume "$cafile:/run/plateau-ca.crt:ro" --build-arg NPM_CAFILE=/run/plateau-ca.crt)
fi
podman build --isolation=chroot --build-arg BASE="$BASE" "${ca_args[@]}" -f deploy/Containerfile \
  -t "$TAG" .

# The image runs: /healthz answers and the web client is served. In a container runtime when
# this machine has a usable one; else (no cgroups or rlimits to give, as inside another
# container) its entrypoint is run in the image's own filesystem with chroot.
port=$(( 20000 + RANDOM % 20000 ))
name=plateau-image-check-$$
if podman run -d --rm --name "$name" -p "127.0.0.1:$port:8080" "$TAG" >/dev/null 2>run.err; then
  trap 'podman rm -f "$name" >/dev/null 2>&1 || true; rm -f run.err' EXIT
else
  echo "podman run: $(tail -n1 run.err); running the image's files with chroot instead"
  rm -f run.err
  # A container's filesystem (writable, unlike the image's): the server writes its database.
  cid=$(podman create "$TAG")
  root=$(podman mount "$cid")
  trap '[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; sleep 0.5; podman umount "$cid" >/dev/null 2>&1; podman rm -f "$cid" >/dev/null 2>&1 || true' EXIT
  chroot --userspec=plateau:plateau "$root" /usr/local/bin/plateau-server --bind=127.0.0.1 \
    --port="$port" --db=/var/lib/plateau/plateau.db --static=/usr/share/plateau/web &
  pid=$!
  name=
fi
for _ in $(seq 100); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/healthz" | grep -q '"ok"' ||
  { [ -n "$name" ] && podman logs "$name"; echo "FAIL: no /healthz"; exit 1; }
curl -fsS "http://127.0.0.1:$port/" | grep -q '<div id="app"' || curl -fsS "http://127.0.0.1:$port/" | grep -qi '<html' ||
  { echo "FAIL: no web client"; exit 1; }
echo "Image $TAG built; a container of it answers /healthz and serves the web client."
podman image ls "$TAG"
