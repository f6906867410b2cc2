#!/usr/bin/env bash
# `baseskin rig` and `animate --motion M.bvh` as a user meets them: a tiny capture becomes a body whose
# motion animates it (from the capture and from the written motion.json alike); damaged captures, other
# model formats and bad frame ranges give the documented exit codes.
# usage: rig.sh BASESKIN_BINARY TEST_DATA_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/expect.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/walk_bvh.sh"

write_walk_bvh "$tmp/walk.bvh"

expect 0 "6 spheres, 5 bones" -- rig --model "$tmp/walk.bvh" --points 3000 --out "$tmp/body"
grep -aq "property float x" "$tmp/body/points.ply" || fail "a body near the origin was not written in float"
# The same capture 1e8 from the origin: its points are written in double (float's grid there is 8 units).
sed 's/^  OFFSET 0 0 0$/  OFFSET 100000000 0 0/; s/^0 9 \([0-9]\) /100000000 9 \1 /' "$tmp/walk.bvh" >"$tmp/far_walk.bvh"
expect 0 "6 spheres, 5 bones" -- rig --model "$tmp/far_walk.bvh" --points 3000 --out "$tmp/far_body"
grep -aq "property double x" "$tmp/far_body/points.ply" || fail "a body 1e8 from the origin was written in float"
for f in skeleton.json points.ply motion.json; do [ -s "$tmp/body/$f" ] || fail "rig wrote no $f"; done
# --seed is read as counts are: an empty one had been taken as seed 0, "0x10" and " 7" as numbers, and
# CLI11 said only "Could not convert" of a bad one.
expect 1 "--seed: expected a whole number (1e6 notation allowed), got an empty value" -- rig --model "$tmp/walk.bvh" --points 100 --seed "" --out "$tmp/seeded"
expect 1 "--seed: expected a whole number (1e6 notation allowed), got 0x10" -- rig --model "$tmp/walk.bvh" --points 100 --seed 0x10 --out "$tmp/seeded"
expect 1 "--seed: expected a whole number (1e6 notation allowed), got  7" -- rig --model "$tmp/walk.bvh" --points 100 --seed " 7" --out "$tmp/seeded"
expect 1 "--seed: expected 0 to 4294967295, got 4294967296" -- rig --model "$tmp/walk.bvh" --points 100 --seed 4294967296 --out "$tmp/seeded"
expect 1 "--seed: expected 0 to 4294967295, got -1" -- rig --model "$tmp/walk.bvh" --points 100 --seed -1 --out "$tmp/seeded"
[ -e "$tmp/seeded" ] && fail "rig wrote a body for a refused --seed"
# The default seed is 2024, written any way a count may be.
expect 0 "" -- rig --model "$tmp/walk.bvh" --points 100 --out "$tmp/seed_default"
expect 0 "" -- rig --model "$tmp/walk.bvh" --points 100 --seed 2.024e3 --out "$tmp/seed_2024"
cmp -s "$tmp/seed_default/points.ply" "$tmp/seed_2024/points.ply" || fail "--seed 2.024e3 did not give the default seed's points"
expect 0 "wrote 3 frames" -- animate --skeleton "$tmp/body/skeleton.json" --points "$tmp/body/points.ply" --motion "$tmp/walk.bvh" --method dqs --out "$tmp/from_bvh"
expect 0 "wrote 2 frames" -- animate --skeleton "$tmp/body/skeleton.json" --points "$tmp/body/points.ply" --motion "$tmp/body/motion.json" --frames 1: --method dqs --out "$tmp/from_json"
# An output that is one of the run's inputs is refused before anything is written: by name, or through a
# link in the output folder (animate wrote frame 0 over the points; rig replaced a model named points.ply).
cp "$tmp/body/points.ply" "$tmp/points_before.ply"
expect 1 "--out: $tmp/body/points.ply is the --points file: writing it would replace that input" -- \
    animate --skeleton "$tmp/body/skeleton.json" --points "$tmp/body/points.ply" --motion "$tmp/body/motion.json" --out "$tmp/body/points.ply"
mkdir -p "$tmp/linked"; ln -s "$tmp/body/points.ply" "$tmp/linked/frame_00001.ply"
expect 3 "$tmp/linked/frame_00001.ply is the --points file $tmp/body/points.ply" -- \
    animate --skeleton "$tmp/body/skeleton.json" --points "$tmp/body/points.ply" --motion "$tmp/body/motion.json" --method dqs --out "$tmp/linked"
[ ! -e "$tmp/linked/frame_00000.ply" ] || fail "a frame was written before the link to an input was refused"
cmp -s "$tmp/body/points.ply" "$tmp/points_before.ply" || fail "the input points were written over"
cp "$tmp/walk.bvh" "$tmp/linked/points.ply"
expect 1 "--out: $tmp/linked/points.ply is the --model file" -- rig --model "$tmp/linked/points.ply" --out "$tmp/linked"
# A rig's files are written as a set: where the last cannot be (motion.json is a folder here), the
# earlier rig's skeleton and points stay as they were (they had been replaced, beside no motion).
cp -r "$tmp/body" "$tmp/set"; rm "$tmp/set/motion.json"; mkdir "$tmp/set/motion.json"
expect 3 "$tmp/set/motion.json: cannot open for writing (it is a directory)" -- rig --model "$tmp/walk.bvh" --points 500 --out "$tmp/set"
cmp -s "$tmp/set/skeleton.json" "$tmp/body/skeleton.json" && cmp -s "$tmp/set/points.ply" "$tmp/body/points.ply" ||
    fail "a rig that could not write its motion replaced the earlier skeleton or points"
# The capture and the motion file written from it deform the points alike (frame 2 of both).
cmp -s "$tmp/from_bvh/frame_00002.ply" "$tmp/from_json/frame_00002.ply" || fail "motion.json and the capture disagree on frame 2"
[ -e "$tmp/from_json/frame_00000.ply" ] && fail "--frames 1: wrote frame 0"
# Position channels on a joint other than the root: the poses leave them out, and rig says so.
awk '/JOINT LeftUpLeg/ {upleg = 1} upleg && /CHANNELS 3/ {sub(/CHANNELS 3/, "CHANNELS 6 Xposition Yposition Zposition"); upleg = 0} {print}' "$tmp/walk.bvh" |
    awk 'BEGIN {m = 0} /^MOTION/ {m = 1} m && NF == 15 {$7 = "1 -1 0.5 " $7} {print}' >"$tmp/sliding.bvh"
expect 0 'note: position channels move joint "LeftUpLeg" up to 0.5 from its offset (frame 0)' -- rig --model "$tmp/sliding.bvh" --points 500 --out "$tmp/sliding"
# animate reading the capture says it too (it had said nothing).
expect 0 'note: position channels move joint "LeftUpLeg" up to 0.5 from its offset (frame 0)' -- \
    animate --skeleton "$tmp/sliding/skeleton.json" --points "$tmp/sliding/points.ply" --motion "$tmp/sliding.bvh" --out "$tmp/sliding_frames"


# A rigged, animated model and one without bones (Debian's assimp-testmodels, installed by ./run).
models=/usr/share/assimp/models/FBX
if [ -e "$models/animation_with_skeleton.fbx" ]; then
    expect 0 "17 spheres, 16 bones (2 bridges)" -- rig --model "$models/animation_with_skeleton.fbx" --points 2000 --out "$tmp/tube"
    for f in skeleton.json points.ply motion.json; do [ -s "$tmp/tube/$f" ] || fail "rig of the FBX wrote no $f"; done
    expect 0 "wrote 26 frames" -- animate --skeleton "$tmp/tube/skeleton.json" --points "$tmp/tube/points.ply" --motion "$tmp/tube/motion.json" --method lbs --out "$tmp/tube_frames"
    expect 0 "it has no bones" -- rig --model "$models/box.fbx" --points 100 --out "$tmp/box"
    [ -s "$tmp/box/points.ply" ] && [ ! -e "$tmp/box/skeleton.json" ] || fail "a model without bones: points.ply alone expected"
    # Into the folder of an earlier rig: its skeleton and motion do not belong to the box's points (animate
    # took them together), so they are removed, and said.
    cp -r "$tmp/body" "$tmp/reused"
    expect 0 "note: removed $tmp/reused/motion.json of an earlier rig" -- rig --model "$models/box.fbx" --points 100 --out "$tmp/reused"
    [ -s "$tmp/reused/points.ply" ] && [ ! -e "$tmp/reused/skeleton.json" ] && [ ! -e "$tmp/reused/motion.json" ] ||
        fail "the earlier rig's files stayed beside the box's points"
    echo '{"my": "own notes"}' >"$tmp/reused/motion.json"
    expect 0 "note: $tmp/reused/motion.json is not this rig's (left as it was)" -- rig --model "$models/box.fbx" --points 100 --out "$tmp/reused"
    grep -q "own notes" "$tmp/reused/motion.json" || fail "a file of the user's own named motion.json was removed"
    # A capture whose motion would pass a motion's 10,000,000 joint rotations (joints without channels make
    # bones without values: 200 bones × 50,001 frames of one value) still gives its body, without motion.json.
    {
        printf 'HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\nCHANNELS 1 Zrotation\n'
        for j in $(seq 199); do printf 'JOINT J%d\n{\nOFFSET 0 1 0\nCHANNELS 0\n' "$j"; done
        printf 'End Site\n{\nOFFSET 0 1 0\n}\n'
        for j in $(seq 200); do printf '}\n'; done
        printf 'MOTION\nFrames: 50001\nFrame Time: 0.01\n'
        yes 0 | head -n 50001
    } >"$tmp/channel_less.bvh"
    expect 0 "no motion.json: its 50001 frames of 200 bones exceed the limit of 10000000 joint rotations" -- \
        rig --model "$tmp/channel_less.bvh" --points 100 --out "$tmp/channel_less"
    [ -s "$tmp/channel_less/skeleton.json" ] && [ ! -e "$tmp/channel_less/motion.json" ] || fail "a capture too long for a motion: no body"
    # An earlier rig's motion too large for the JSON reader (a ten-minute capture's, 276 MB) is known by its
    # start, and removed too (it was "not this rig's", and kept).
    printf '{"fps": 120, "bone_count": 27,\n "frames": [' >"$tmp/reused/motion.json"
    truncate -s 300M "$tmp/reused/motion.json"
    expect 0 "note: removed $tmp/reused/motion.json of an earlier rig" -- rig --model "$models/box.fbx" --points 100 --out "$tmp/reused"
    head -c 20000 "$models/animation_with_skeleton.fbx" >"$tmp/cut.fbx"
    expect 2 "cut.fbx" -- rig --model "$tmp/cut.fbx" --out "$tmp/x"
    # A file of lamps and no geometry: assimp would draw its node tree as a mesh, which had been rigged
    # into a body of 10 bones.
    if [ -e "$models/../Collada/lights.dae" ]; then
        expect 2 "lights.dae: no polygons to sample" -- rig --model "$models/../Collada/lights.dae" --points 100 --out "$tmp/lamps"
    fi
    # A time limit for assimp that is not a time is refused, not replaced by the default.
    export BASESKIN_ASSIMP_SECONDS=soon
    expect 2 'BASESKIN_ASSIMP_SECONDS (environment): expected seconds > 0, got "soon"' -- rig --model "$models/box.fbx" --points 100 --out "$tmp/box"
    unset BASESKIN_ASSIMP_SECONDS
else
    echo "skipped the model checks: $models missing (assimp-testmodels)"
fi

# Bad input.
printf 'solid nothing\n' >"$tmp/empty.stl"
expect 2 "empty.stl" -- rig --model "$tmp/empty.stl" --out "$tmp/x"
sed 's/^0 9 1 0 0 0 0 0 30 0 0 -40 0 0 10$/0 9 1 0 0 0 0 0 30 0 0 -40 0 0/' "$tmp/walk.bvh" >"$tmp/short.bvh"
expect 2 "short.bvh:34: frame 1: expected 15 values" -- rig --model "$tmp/short.bvh" --out "$tmp/x"
head -n 30 "$tmp/walk.bvh" >"$tmp/cut.bvh"
expect 2 "cut.bvh" -- rig --model "$tmp/cut.bvh" --out "$tmp/x"
# A capture within the readers' bound whose body is not (an end site 1e15 out): refused before writing.
printf 'HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\nEnd Site\n{\nOFFSET 0 1e15 0\n}\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n' >"$tmp/huge.bvh"
expect 2 "huge.bvh: the body built on it reaches" -- rig --model "$tmp/huge.bvh" --points 100 --out "$tmp/huge"
[ ! -e "$tmp/huge" ] || fail "a refused rig created its output folder"
# An --out under a file is said before the body is built (it was said after it), and nothing is made.
echo "a file" >"$tmp/a_file"
expect 3 "$tmp/a_file/rig: cannot create folder: $tmp/a_file is not a folder" -- rig --model "$tmp/walk.bvh" --points 100 --out "$tmp/a_file/rig"
expect 2 "--frames 5:9" -- animate --skeleton "$tmp/body/skeleton.json" --points "$tmp/body/points.ply" --motion "$tmp/walk.bvh" --frames 5:9 --out "$tmp/x"
expect 1 "--frames: 2-3: expected A:B" -- animate --skeleton "$tmp/body/skeleton.json" --points "$tmp/body/points.ply" --motion "$tmp/walk.bvh" --frames 2-3 --out "$tmp/x"
# A capture that is not the skeleton's.
sed 's/OFFSET 0 -4 0$/OFFSET 0 -5 0/' "$tmp/walk.bvh" >"$tmp/other.bvh"
expect 2 "matches the skeleton's bones, but its sphere" -- animate --skeleton "$tmp/body/skeleton.json" --points "$tmp/body/points.ply" --motion "$tmp/other.bvh" --out "$tmp/x"

[ "$failures" -eq 0 ] && echo "all rig checks passed"
exit "$failures"
