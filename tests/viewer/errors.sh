#!/usr/bin/env bash
# baseskin-view as a user meets it: exit codes and messages for bad command lines, bad files, no display,
# a pose the method refuses and a backend that is not there. usage: errors.sh VIEW_BINARY
source "$(dirname "${BASH_SOURCE[0]}")/../cli/lib/expect.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.sh"
view=$1

echo '{"spheres": [[0,0,0,1],[4,0,0,1],[7,0,0,0.5]], "bones": [[0,1],[1,2]]}' >"$tmp/skeleton.json"
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 1 0\n4 0 1\n6 0.5 0\n' >"$tmp/points.ply"
echo '{"bones": [{"bone": 7}]}' >"$tmp/bad_pose.json"
echo '{"bones": [{"bone": 1, "axis": [0,0,1], "degrees": 178}]}' >"$tmp/folded.json"

# Refused before any window is opened.
expect 0 "--screenshot" -- --help
expect 1 "--size" -- --screenshot "$tmp/o.png" --size 12x9000
expect 1 "--size" -- --screenshot "$tmp/o.png" --size wide
# Digits alone: a width past int's range had wrapped (4294967360 read as 64), and signs and spaces were taken.
for size in 4294967360x48 " 64x48" 64x+48 64x48x; do
    expect 1 "--size: expected WIDTHxHEIGHT, each in [16, 8192], got \"$size\"" -- --screenshot "$tmp/o.png" --size "$size"
done
expect 1 "--screenshot: expected a path, got an empty one" -- --screenshot ""
expect 1 "--sheet: 64 tiles of 8192x8192 make 4294967296 pixels" -- --screenshot "$tmp/o.png" --size 8192x8192 --sheet 64
expect 1 "requires --points" -- --skeleton "$tmp/skeleton.json"
# The headless options without --screenshot opened the interactive window, unused; a sheet ignored both.
expect 1 "--sheet requires --screenshot" -- --demo-points 100 --sheet 3
expect 1 "excludes --sheet" -- --demo-points 100 --screenshot "$tmp/o.png" --sheet 3 --play
# Options that did nothing together: a count of demo points beside a body's own, a motion's sheet or play
# where --pose replaces the motion.
expect 1 "--points excludes --demo-points" -- --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --demo-points 100 --screenshot "$tmp/o.png"
echo '{"bones": []}' >"$tmp/rest_pose.json"
expect 1 "--pose excludes --sheet" -- --demo-points 100 --pose "$tmp/rest_pose.json" --screenshot "$tmp/o.png" --sheet 3
expect 1 "--pose excludes --play" -- --demo-points 100 --pose "$tmp/rest_pose.json" --screenshot "$tmp/o.png" --play
expect 1 "--sheet: the body has no motion to go through (give --motion)" -- --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --screenshot "$tmp/o.png" --sheet 3
expect 1 "--play: the body has no motion to go through (give --motion)" -- --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --screenshot "$tmp/o.png" --play
expect 1 "--pick-point: expected 0 to 99999999, got -1" -- --demo-points 100 --pick-point -1 --screenshot "$tmp/o.png"
expect 1 "--pick-point: expected 0 to 99999999, got 99999999999999999999" -- --demo-points 100 --pick-point 99999999999999999999 --screenshot "$tmp/o.png"
# The camera's options: a point of three numbers within the coordinate bound, a zoom within its range, a
# pitch short of the poles.
expect 1 '--look-at: expected x,y,z (three decimal numbers), got ""' -- --demo-points 100 --look-at "" --screenshot "$tmp/o.png"
expect 1 '--look-at: expected x,y,z (three decimal numbers), got "1,2"' -- --demo-points 100 --look-at 1,2 --screenshot "$tmp/o.png"
expect 1 '--look-at: expected x,y,z (three decimal numbers), got "1,2,nan"' -- --demo-points 100 --look-at 1,2,nan --screenshot "$tmp/o.png"
expect 1 "--look-at: a point beyond ±1e15 or not finite" -- --demo-points 100 --look-at 1,2,1e16 --screenshot "$tmp/o.png"
expect 1 "--zoom" -- --demo-points 100 --zoom 0 --screenshot "$tmp/o.png"
expect 1 "--pitch" -- --demo-points 100 --pitch 90 --screenshot "$tmp/o.png"
# NaN passed the ranges (no comparison fails for it) and gave a blank image.
for option in --zoom --yaw --pitch; do
    expect 1 "$option: expected a finite number from" -- --demo-points 100 "$option" nan --screenshot "$tmp/o.png"
done
# A screenshot over an input (a PNG was written into the skeleton file).
cp "$tmp/skeleton.json" "$tmp/kept.json"
expect 1 "--screenshot: $tmp/skeleton.json is the --skeleton file" -- --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --screenshot "$tmp/skeleton.json"
cmp -s "$tmp/skeleton.json" "$tmp/kept.json" || fail "the skeleton was written over"
# An image ending the viewer cannot write (x.jpg had been given PNG bytes; .gif still would be).
expect 1 "--screenshot: $tmp/o.gif: an image is written as .png (or a name without an ending), .jpg, .jpeg, .bmp or .tga" -- --demo-points 100 --screenshot "$tmp/o.gif"
expect 1 "--screenshot: $tmp/.gif: an image is written as" -- --demo-points 100 --screenshot "$tmp/.gif"
expect 1 "File does not exist" -- --skeleton "$tmp/nope.json" --points "$tmp/points.ply"
expect 1 "--method" -- --method xyz
expect 2 "bad_pose.json: bones[0].bone: index 7 out of range" -- --demo-points 100 --pose "$tmp/bad_pose.json" --screenshot "$tmp/o.png"
expect 2 "--pick-point 500: the body has 100 points" -- --demo-points 100 --pick-point 500 --screenshot "$tmp/o.png"

# No display: a clear message and exit 4, not a crash.
bin="$tmp/no-display"
printf '#!/bin/sh\nunset DISPLAY WAYLAND_DISPLAY\nexec "%s" "$@"\n' "$view" >"$bin"
chmod +x "$bin"
expect 4 "cannot open a window" -- --demo-points 100 --screenshot "$tmp/o.png"

# Under Xvfb: a pose the baseline method refuses ends the render (exit 4) instead of saving stale points;
# --backend cuda without a device says so; a good render writes its PNG.
trap 'stop_xvfb; rm -rf "$tmp"' EXIT
if start_xvfb 640x480x24; then
    bin=$view
    expect 4 "frame 0:" -- --demo-points 1000 --size 64x64 --pose "$tmp/folded.json" --screenshot "$tmp/folded.png"
    [ -e "$tmp/folded.png" ] && fail "a refused pose wrote $tmp/folded.png"
    if ! nvidia-smi >/dev/null 2>&1; then
        expect 4 "--backend cuda" -- --demo-points 1000 --size 64x64 --backend cuda --screenshot "$tmp/cuda.png"
    fi
    expect 0 "wrote $tmp/ok.png" -- --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --size 64x64 --screenshot "$tmp/ok.png"
    [ -s "$tmp/ok.png" ] || fail "no $tmp/ok.png"
    # A PNG that cannot be written whole is an I/O error (it said "wrote" and exit 0 over a truncated file).
    if [ -e /dev/full ]; then
        expect 3 "/dev/full: write failed (No space left on device)" -- --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --size 64x64 --screenshot /dev/full
    fi
    # A contact sheet of 3 frames of 64x48: 2 columns and 2 rows of tiles.
    expect 0 "(128 x 96) after 3 frames" -- --demo-points 1000 --size 64x48 --sheet 3 --screenshot "$tmp/sheet.png"
    [ "$(od -An -tu1 -j16 -N8 "$tmp/sheet.png" | tr -s ' ')" = " 0 0 0 128 0 0 0 96" ] || fail "the sheet's PNG is not 128 x 96"
    # The name's ending picks the format: JPEG (FF D8 FF), BMP ("BM"), TGA (run-length RGB, type 10 at byte 2).
    expect 0 "wrote $tmp/shot.JPG" -- --demo-points 1000 --size 64x48 --screenshot "$tmp/shot.JPG"
    [ "$(od -An -tx1 -N3 "$tmp/shot.JPG" | tr -d ' ')" = ffd8ff ] || fail "shot.JPG is not a JPEG"
    expect 0 "wrote $tmp/shot.bmp" -- --demo-points 1000 --size 64x48 --screenshot "$tmp/shot.bmp"
    [ "$(head -c 2 "$tmp/shot.bmp")" = BM ] || fail "shot.bmp is not a BMP"
    # A name that is its ending alone is that format too.
    expect 0 "wrote $tmp/.jpg" -- --demo-points 1000 --size 64x48 --screenshot "$tmp/.jpg"
    [ "$(od -An -tx1 -N3 "$tmp/.jpg" | tr -d ' ')" = ffd8ff ] || fail ".jpg is not a JPEG"
    expect 0 "wrote $tmp/shot.tga" -- --demo-points 1000 --size 64x48 --screenshot "$tmp/shot.tga"
    [ "$(od -An -tu1 -j2 -N1 "$tmp/shot.tga" | tr -d ' ')" = 10 ] || fail "shot.tga is not a run-length RGB TGA"
    # An image sent to standard output keeps its bytes: the summary goes to standard error (it had been
    # written over the PNG's first bytes).
    "$view" --demo-points 1000 --size 64x48 --screenshot /dev/stdout >"$tmp/piped.png" 2>"$tmp/piped.err" ||
        fail "--screenshot /dev/stdout failed: $(cat "$tmp/piped.err")"
    [ "$(od -An -tx1 -N8 "$tmp/piped.png" | tr -d ' ')" = 89504e470d0a1a0a ] || fail "--screenshot /dev/stdout: not a PNG"
    grep -qF "wrote /dev/stdout (64 x 48)" "$tmp/piped.err" || fail "the summary went elsewhere: $(cat "$tmp/piped.err")"
    # A point set of no points shows its sphere-mesh and says so (the grid alone had been drawn).
    printf 'ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\nend_header\n' >"$tmp/empty.ply"
    expect 0 "has no points: its sphere-mesh is drawn instead (wireframe)" -- --skeleton "$tmp/skeleton.json" --points "$tmp/empty.ply" --size 64x64 --screenshot "$tmp/empty.png"
else
    fail "no Xvfb server for the rendering checks"
fi

[ "$failures" -eq 0 ] && echo "all viewer error checks passed"
exit "$failures"
