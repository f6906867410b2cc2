#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then configures, builds and runs tests/install as a
# separate project that finds it with find_package(baseskin).
# Usage: consume.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cuda=()
[ -x /usr/local/cuda/bin/nvcc ] && cuda=(-DCUDAToolkit_ROOT=/usr/local/cuda)
cmake -S "$source/tests/install" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release "${cuda[@]}" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"
