#!/usr/bin/env bash
# What the image suite (npm run test:image) needs before it builds the Dockerfile: an engine that
# answers, the tools of the recipes it runs (pytest, go, docker-compose), and the Dockerfile's
# base image. On a machine with Docker and a registry (a laptop, a GitHub runner) it checks the
# engine and the tools: `docker build` pulls the base image itself.
#
# On a machine with no engine running and no image registry, it uses the engine tools kept beside
# the checkout (DOCKER_TOOLS, default ../shared/tools/docker): engine-up.sh starts Debian's
# docker.io, and base-image.sh makes a local stand-in for the official Node image. The official
# Node 25-and-later images carry libatomic1, which those binaries need; a stand-in made without
# it is given it and made again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tools=${DOCKER_TOOLS:-../shared/tools/docker}
log=${TMPDIR:-/tmp}/onboarding-image-prerequisites.log
: >"$log"

quietly() { # runs a tool with its long output in the log, shown only when it fails
  if ! "$@" >>"$log" 2>&1; then tail -n 30 "$log" >&2; return 1; fi
}

if ! docker info >/dev/null 2>&1; then
  [[ -x "$tools/engine-up.sh" ]] || { echo "no Docker engine answers and $tools/engine-up.sh is missing: start Docker" >&2; exit 1; }
  echo "starting a Docker engine ($tools/engine-up.sh)"
  quietly "$tools/engine-up.sh"
fi
docker info --format 'docker engine {{.ServerVersion}}'

# The recipes of docs/testing.md the suite runs: pytest, go test and docker-compose (v1 syntax).
missing=()
python3 -c 'import pytest' >/dev/null 2>&1 || /usr/bin/python3 -c 'import pytest' >/dev/null 2>&1 || missing+=(python3-pytest)
command -v go >/dev/null || missing+=(golang-go)
command -v docker-compose >/dev/null || missing+=(docker-compose)
if ((${#missing[@]})); then
  sudo=(); [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  echo "installing ${missing[*]} (apt-get)"
  quietly "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive quietly "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

base=$(sed -nE 's/^FROM[[:space:]]+([^[:space:]]+).*/\1/p' Dockerfile | head -n 1)
if docker image inspect "$base" >/dev/null 2>&1 || [[ ! -x "$tools/base-image.sh" ]]; then
  echo "base image $base: present or pulled by docker build"
  exit 0
fi
export BASE_IMAGE_WORK=${BASE_IMAGE_WORK:-${TMPDIR:-/tmp}/onboarding-base-image}
echo "making a stand-in for $base ($tools/base-image.sh)"
if ! "$tools/base-image.sh" "$base" >>"$log" 2>&1; then
  major=$(echo "$base" | sed -nE 's/^node:([0-9]+).*/\1/p')
  rootfs=$BASE_IMAGE_WORK/rootfs-$major
  if ! grep -q 'libatomic.so.1' "$log" || [[ ! -x "$rootfs/usr/bin/apt-get" ]]; then tail -n 30 "$log" >&2; exit 1; fi
  echo "adding libatomic1, as in the official image, and making it again"
  quietly chroot "$rootfs" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive quietly chroot "$rootfs" apt-get install -y -qq --no-install-recommends libatomic1
  quietly "$tools/base-image.sh" "$base"
fi
docker image inspect -f "base image $base: {{.Comment}}" "$base"
