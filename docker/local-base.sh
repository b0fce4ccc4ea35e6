#!/usr/bin/env bash
# Prepares a local JRE 21 base image for docker/Dockerfile where no registry can be reached
# (podman only, no pulls): a Debian root file system from debootstrap, imported as an image, and
# a JRE layer apt-installed on top from the Debian mirror.
#
#   docker/local-base.sh [IMAGE]     # default IMAGE: localhost/tern-jre21
#   podman build --format docker --build-arg BASE_IMAGE=localhost/tern-jre21 -f docker/Dockerfile -t tern .
#
# Environment: TERN_BASE_SUITE (default trixie: the first Debian release with OpenJDK 21),
# TERN_BASE_MIRROR (default: the first URI of /etc/apt/sources.list.d/debian.sources, else
# http://deb.debian.org/debian), TERN_BASE_WORK (scratch directory, default /var/tmp/tern-base).
# Skips everything when IMAGE already exists, unless TERN_BASE_REBUILD=1.
set -euo pipefail
# runc and ulimits that work on CI hosts (see the file), unless the caller chose a configuration.
export CONTAINERS_CONF="${CONTAINERS_CONF:-$(cd "$(dirname "$0")" && pwd)/containers.conf}"

image="${1:-localhost/tern-jre21}"
suite="${TERN_BASE_SUITE:-trixie}"
work="${TERN_BASE_WORK:-/var/tmp/tern-base}"
rootfs_image="localhost/tern-debian-${suite}"

if [ "${TERN_BASE_REBUILD:-0}" != 1 ] && podman image exists "$image"; then
  echo "local-base: $image exists (TERN_BASE_REBUILD=1 rebuilds it)"
  exit 0
fi

mirror="${TERN_BASE_MIRROR:-}"
if [ -z "$mirror" ] && [ -r /etc/apt/sources.list.d/debian.sources ]; then
  mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
fi
mirror="${mirror:-http://deb.debian.org/debian}"

for tool in podman debootstrap; do
  command -v "$tool" >/dev/null || { echo "local-base: $tool is not installed" >&2; exit 1; }
done

if [ "${TERN_BASE_REBUILD:-0}" = 1 ] || ! podman image exists "$rootfs_image"; then
  rm -rf "$work"
  mkdir -p "$work"
  echo "local-base: debootstrap $suite from $mirror into $work/rootfs"
  debootstrap --variant=minbase "$suite" "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
    echo "local-base: debootstrap failed, its log:" >&2
    tail -20 "$work/debootstrap.log" >&2
    exit 1
  }
  # kube play and RUN need a PATH; import gives the image none.
  tar -C "$work/rootfs" -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    - "$rootfs_image"
  rm -rf "$work"
fi

echo "local-base: building $image on $rootfs_image"
podman build --format docker -t "$image" -f - "$(mktemp -d)" <<DOCKERFILE
FROM $rootfs_image
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends openjdk-21-jre-headless ca-certificates \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
DOCKERFILE
echo "local-base: $image ready"
