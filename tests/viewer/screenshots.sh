#!/usr/bin/env bash
# baseskin-view renders the built-in demo headless at rest and with bone 1 bent by 100° about z; the
# checker compares both PNGs with where the sphere-mesh projects (tests/viewer/screenshots/); the bent demo
# carried 1e7 away by its root is the same picture as the bent demo (the viewer draws camera-relative).
# usage: screenshots.sh VIEW_BINARY CHECK_BINARY WORKDIR
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: screenshots.sh VIEW_BINARY CHECK_BINARY WORKDIR" >&2
    exit 2
fi
view=$1 check=$2 work=$3
points=50000

# The viewer needs an X display even headless (a hidden GLFW window); one Xvfb server gives it one.
source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.sh"
trap stop_xvfb EXIT
start_xvfb 1280x720x24

mkdir -p "$work"
rm -f "$work/rest.png" "$work/bent.png" "$work/far.png"
echo '{"bones": [{"bone": 1, "axis": [0,0,1], "degrees": 100}]}' >"$work/bent.json"
echo '{"root": {"translation": [1e7, -2e6, 3e6]}, "bones": [{"bone": 1, "axis": [0,0,1], "degrees": 100}]}' >"$work/far.json"

render() {  # render OUT.png [viewer options...]
    local out=$1
    shift
    "$view" --screenshot "$out" --demo-points "$points" --size "$size" "$@" ||
        { echo "FAIL: baseskin-view exited with $? rendering $out" >&2; exit 1; }
    [ -s "$out" ] || { echo "FAIL: baseskin-view wrote no $out" >&2; exit 1; }
}

# A landscape and a portrait image: the camera frames the body for the image's own shape.
for size in 640x360 300x480; do
    render "$work/rest.png"
    render "$work/bent.png" --pose "$work/bent.json"
    echo "== $size"
    "$check" "$work/rest.png" "$work/bent.png" "$work/bent.json" "$points"
    render "$work/far.png" --pose "$work/far.json"
    "$check" --same "$work/bent.png" "$work/far.png"
done
