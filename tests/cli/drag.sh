#!/usr/bin/env bash
# `baseskin drag` and `animate --method metaball` as a user meets them: outputs, exit codes, messages.
# usage: drag.sh BASESKIN_BINARY TEST_DATA_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/expect.sh"

# Vertex rows of an ASCII PLY (x y z per line after the header).
rows() { sed '1,/^end_header/d' "$1"; }

# A chain along x, spheres 0..3, and points on the axis and around it, plus a triangle (faces kept).
echo '{"spheres": [[0,0,0,1],[4,0,0,1],[7,0,0,0.8],[10,0,0,0.5]], "bones": [[0,1],[1,2],[2,3]]}' >"$tmp/skeleton.json"
cat >"$tmp/points.ply" <<'EOF'
ply
format ascii 1.0
element vertex 6
property float x
property float y
property float z
element face 1
property list uchar int vertex_indices
end_header
0 1 0
4 1 0
7 0.8 0
10 0 0
10 0.5 0
30 0 0
3 0 1 2
EOF
drag=(drag --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply")

expect 0 "--joint" -- drag --help
# A lone bone cannot reach a target nearer than its length: said so (it read as a solver failure).
expect 0 "too near the held joint for the chain to fold to it" -- "${drag[@]}" --joint 3 --to 8,0,0 --chain 2 --keep-lengths --out "$tmp/near.ply"
# A chain already stretched towards a --to beyond its reach: no joint moves, and the note says so (it said
# --to was where the joint already is, beside the note that it stops 10 from it).
expect 0 "no joint moved: the chain already reaches as far towards --to as it can" -- "${drag[@]}" --joint 3 --to 20,0,0 --keep-lengths --out "$tmp/far.ply"
# --to where the joint already is: nothing moves, and the note says why (it had blamed a coarse mesh).
expect 0 "note: no joint moved: --to is where joint 3 already is" -- "${drag[@]}" --joint 3 --to 10,0,0 --out "$tmp/still.ply"

# Joint 3 dragged by (0, 4, 0) along 3 joints: joint 2 moves by half of it, joint 1 is held. The vertex
# at joint 3's centre moves by the whole drag; the far vertex (nearest to joint 3, and its R) stays.
expect 0 "dragged joint 3 along 3 joints: 1 -> (4, 0, 0) 2 -> (7, 2, 0) 3 -> (10, 4, 0)" -- "${drag[@]}" --joint 3 --to 10,4,0 --out "$tmp/dragged.ply"
[ "$(rows "$tmp/dragged.ply" | sed -n 4p)" = "10 4 0" ] || fail "the vertex at the dragged joint did not follow it: $(rows "$tmp/dragged.ply" | sed -n 4p)"
[ "$(rows "$tmp/dragged.ply" | sed -n 6p)" = "30 0 0" ] || fail "the farthest vertex of a region moved: $(rows "$tmp/dragged.ply" | sed -n 6p)"
[ "$(rows "$tmp/dragged.ply" | sed -n 1p)" = "0 1 0" ] || fail "a vertex of a held joint moved"
[ "$(rows "$tmp/dragged.ply" | sed -n 7p)" = "3 0 1 2" ] || fail "the face was not kept"
head -2 "$tmp/dragged.ply" | grep -q "format ascii" || fail "ASCII input did not give ASCII output"

# --out-skeleton writes the skeleton as the drag left it, and a next drag of the points written starts from
# it: the same drag again moves nothing (from the rest skeleton it had moved every point a second time).
expect 0 "wrote the dragged skeleton to $tmp/dragged_skeleton.json" -- \
    "${drag[@]}" --joint 3 --to 10,4,0 --out "$tmp/dragged.ply" --out-skeleton "$tmp/dragged_skeleton.json"
expect 0 "note: no joint moved: --to is where joint 3 already is" -- \
    drag --skeleton "$tmp/dragged_skeleton.json" --points "$tmp/dragged.ply" --joint 3 --to 10,4,0 --out "$tmp/again.ply"
[ "$(rows "$tmp/again.ply")" = "$(rows "$tmp/dragged.ply")" ] || fail "the same drag from the dragged skeleton moved the points again"
dragged_spheres=$(tr -d ' \n' <"$tmp/dragged_skeleton.json")
grep -qF '[10.0,4.0,0.0,0.5]' <<<"$dragged_spheres" && grep -qF '[7.0,2.0,0.0,0.8]' <<<"$dragged_spheres" ||
    fail "the dragged skeleton does not hold the joints where the drag put them: $(cat "$tmp/dragged_skeleton.json")"
# The two are written together or not at all: a skeleton that cannot be written leaves no points either.
expect 3 "$tmp/no_folder/s.json" -- "${drag[@]}" --joint 3 --to 10,4,0 --out "$tmp/alone.ply" --out-skeleton "$tmp/no_folder/s.json"
[ ! -e "$tmp/alone.ply" ] || fail "the points were written without their dragged skeleton"
# A dragged skeleton the rules refuse (two joints met) stops the run before anything is written.
expect 2 "(the dragged skeleton; nothing written; add --keep-lengths to keep the bones' lengths)" -- \
    "${drag[@]}" --joint 3 --to 7,0,0 --chain 2 --out "$tmp/met_points.ply" --out-skeleton "$tmp/met_skeleton.json"
[ ! -e "$tmp/met_points.ply" ] && [ ! -e "$tmp/met_skeleton.json" ] || fail "a refused dragged skeleton left files behind"
expect 1 "--out-skeleton: names the same file as --out" -- "${drag[@]}" --joint 3 --to 10,4,0 --out "$tmp/o.ply" --out-skeleton "$tmp/o.ply"
expect 1 "--out-skeleton: $tmp/skeleton.json is the --skeleton file" -- "${drag[@]}" --joint 3 --to 10,4,0 --out "$tmp/o.ply" --out-skeleton "$tmp/skeleton.json"

# An --out that is an input (here through a link) is refused: the drag would replace the points it read.
ln -s "$tmp/points.ply" "$tmp/points_link.ply"
expect 1 "--out: $tmp/points_link.ply is the --points file $tmp/points.ply: writing it would replace that input" -- \
    "${drag[@]}" --joint 3 --to 10,4,0 --out "$tmp/points_link.ply"

# The default chain is 3 joints, or as many as the walk holds: joint 1 has only the root above it.
expect 0 "dragged joint 1 along 2 joints" -- "${drag[@]}" --joint 1 --to 4,1,0 --out "$tmp/short.ply"
# From the root the chain walks towards the tip.
expect 0 "dragged joint 0 along 4 joints: 3 -> (10, 0, 0)" -- "${drag[@]}" --joint 0 --to -2,0,0 --chain 4 --out "$tmp/root.ply"
# Keeping lengths: an out-of-reach target straightens the chain towards it (bones 4, 3, 3 from the origin).
expect 0 "0 -> (0, 0, 0) 1 -> (0, 4, 0) 2 -> (0, 7, 0) 3 -> (0, 10, 0)" -- "${drag[@]}" --joint 3 --to 0,20,0 --chain 4 --keep-lengths --out "$tmp/lengths.ply"
# That target is out of reach, and the run says so; a reachable one on the chain's own line is reached by folding.
expect 0 "note: joint 3 stops 10 from --to: out of the chain's reach with its lengths kept" -- "${drag[@]}" --joint 3 --to 0,20,0 --chain 4 --keep-lengths --out "$tmp/lengths.ply"
for to in 5 9.99; do
    out=$("$bin" "${drag[@]}" --joint 3 --to $to,0,0 --keep-lengths --out "$tmp/folded.ply" 2>&1)
    got=$?
    [ "$got" -eq 0 ] && grep -qF "3 -> ($to, " <<<"$out" && ! grep -qF "note:" <<<"$out" ||
        fail "a straight chain pushed along itself to $to -> exit $got: $out"
done

# The paper's propagation onto the neighbouring joint leaves a bone of no length, and the run says so.
expect 0 "note: joints 2 and 3 now meet (their bone's length 0, 3 at rest)" -- "${drag[@]}" --joint 3 --to 7,0,0 --chain 2 --out "$tmp/met.ply"

# A binding file (as written by the Reeb extraction): vertex 4 is unbound, and the moved joints 1 and 2
# bind no vertex at all (R = 0): no field, no NaN, nothing moves.
echo '{"binding": [0, 3, 3, 3, -1, 3]}' >"$tmp/binding.json"
expect 0 "wrote 6 points" -- "${drag[@]}" --joint 2 --to 7,3,0 --chain 3 --binding "$tmp/binding.json" --out "$tmp/bound.ply"
if rows "$tmp/bound.ply" | grep -qiE "nan|inf"; then fail "non-finite output for a joint with no bound vertex"; fi
[ "$(rows "$tmp/bound.ply" | sed -n 5p)" = "10 0.5 0" ] || fail "an unbound vertex moved"

# A skeleton with a junction (as the automatic rig writes them) can be dragged; the other branch stays.
echo '{"spheres": [[0,0,0,1],[4,0,0,1],[7,2,0,0.5],[7,-2,0,0.5]], "bones": [[0,1],[1,2],[1,3]]}' >"$tmp/y.json"
expect 0 "dragged joint 3 along 3 joints: 0 -> (0, 0, 0) 1 -> (4, -1, 0) 3 -> (7, -4, 0)" -- drag --skeleton "$tmp/y.json" --points "$tmp/points.ply" --joint 3 --to 7,-4,0 --out "$tmp/y.ply"

# The extraction's binding beside the skeleton (S.json -> S.binding.json) is picked up without --binding.
cp "$tmp/skeleton.json" "$tmp/rigged.json"
echo '{"binding": [0, 1, 2, -1, 3, 3], "reeb": {}}' >"$tmp/rigged.binding.json"
expect 0 "binding: $tmp/rigged.binding.json" -- drag --skeleton "$tmp/rigged.json" --points "$tmp/points.ply" --joint 3 --to 10,4,0 --out "$tmp/rigged.ply"
[ "$(rows "$tmp/rigged.ply" | sed -n 4p)" = "10 0 0" ] || fail "the binding file's unbound vertex moved"
# That binding is an input too: an --out naming it is refused (a PLY was written over it).
expect 1 "--out: $tmp/rigged.binding.json is the --binding file" -- drag --skeleton "$tmp/rigged.json" --points "$tmp/points.ply" --joint 3 --to 10,4,0 --out "$tmp/rigged.binding.json"
# A drag that moves no point (the moved joint's region holds one point, its farthest) says so.
echo '{"binding": [-1, -1, 2, 3, -1, -1]}' >"$tmp/lonely.json"
expect 0 "note: no point moved: the moved joints' regions hold 1 point," -- "${drag[@]}" --joint 3 --to 10,4,0 --chain 2 --binding "$tmp/lonely.json" --out "$tmp/lonely.ply"
# That file is for the vertices `skeleton` read: other points are refused with the way around it.
printf 'ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 0 0\n4 0 1\n' >"$tmp/two.ply"
expect 2 "expected one node index per vertex (2), got 6 (the binding found beside the skeleton" -- drag --skeleton "$tmp/rigged.json" --points "$tmp/two.ply" --joint 3 --to 10,4,0 --out "$tmp/two_out.ply"
expect 0 "binding: nearest joint sphere" -- "${drag[@]}" --joint 3 --to 10,4,0 --out "$tmp/nearest.ply"
# A binding made for other vertices (its digest names them): refused where found beside the skeleton, with
# the way to use it anyway; used as given, with a note, where given (points moved by an earlier drag).
cp "$tmp/rigged.json" "$tmp/other.json"
echo '{"binding": [0, 1, 2, -1, 3, 3], "vertices_digest": "0123456789abcdef"}' >"$tmp/other.binding.json"
expect 2 "vertices_digest: the binding was made for other vertices" -- drag --skeleton "$tmp/other.json" --points "$tmp/points.ply" --joint 3 --to 10,4,0 --out "$tmp/other.ply"
expect 2 "give --binding $tmp/other.binding.json to use it for these points anyway" -- drag --skeleton "$tmp/other.json" --points "$tmp/points.ply" --joint 3 --to 10,4,0 --out "$tmp/other.ply"
expect 0 "note: $tmp/other.binding.json was made for other vertices (as many, but other positions or another order): used as given" -- \
    drag --skeleton "$tmp/other.json" --points "$tmp/points.ply" --binding "$tmp/other.binding.json" --joint 3 --to 10,4,0 --out "$tmp/other.ply"

# A mesh (read through the mesh loader) comes back as a binary PLY with its triangles.
printf 'v 0 1 0\nv 4 1 0\nv 10 0 0\nv 10 0.5 0\nf 1 2 3\nf 2 3 4\n' >"$tmp/mesh.obj"
expect 0 "wrote 4 points" -- drag --skeleton "$tmp/skeleton.json" --mesh "$tmp/mesh.obj" --joint 3 --to 10,4,0 --out "$tmp/mesh.ply"
head -c 400 "$tmp/mesh.ply" | grep -aq "element face 2" || fail "the mesh's triangles were not written"
expect 1 "--points or --mesh is required" -- drag --skeleton "$tmp/skeleton.json" --joint 3 --to 1,2,3 --out "$tmp/o.ply"
expect 1 "excludes" -- drag --skeleton "$tmp/skeleton.json" --mesh "$tmp/mesh.obj" --points "$tmp/points.ply" --joint 3 --to 1,2,3 --out "$tmp/o.ply"

# Bad input, one check each.
expect 2 "--joint 4 --to 1,2,3 (skeleton $tmp/skeleton.json): drag: joint 4 out of range [0, 4)" -- "${drag[@]}" --joint 4 --to 1,2,3 --out "$tmp/o.ply"
# --joint and --chain are read as every count is: decimal, whole, within what any skeleton holds (an empty
# --joint "$J" dragged the root as joint 0; "0x3" and " 3" were read as 3; CLI11 said "Could not convert").
rm -f "$tmp/o.ply"
expect 1 "--joint: expected 0 to 4096, got -1" -- "${drag[@]}" --joint -1 --to 1,2,3 --out "$tmp/o.ply"
expect 1 "--joint: expected a whole number (1e6 notation allowed), got an empty value" -- "${drag[@]}" --joint "" --to 10,4,0 --out "$tmp/o.ply"
[ -e "$tmp/o.ply" ] && fail "an empty --joint was taken as joint 0: $tmp/o.ply written"
expect 1 "--joint: expected a whole number (1e6 notation allowed), got 0x3" -- "${drag[@]}" --joint 0x3 --to 10,4,0 --out "$tmp/o.ply"
expect 1 "--joint: expected a whole number (1e6 notation allowed), got  3" -- "${drag[@]}" --joint " 3" --to 10,4,0 --out "$tmp/o.ply"
expect 1 "--joint: expected a whole number (1e6 notation allowed), got 2.5" -- "${drag[@]}" --joint 2.5 --to 10,4,0 --out "$tmp/o.ply"
expect 1 "--joint: expected 0 to 4096, got 5000" -- "${drag[@]}" --joint 5000 --to 10,4,0 --out "$tmp/o.ply"
expect 1 "--chain: expected a whole number (1e6 notation allowed), got an empty value" -- "${drag[@]}" --joint 3 --chain "" --to 10,4,0 --out "$tmp/o.ply"
expect 1 "--chain: expected a whole number (1e6 notation allowed), got 0x3" -- "${drag[@]}" --joint 3 --chain 0x3 --to 10,4,0 --out "$tmp/o.ply"
expect 1 "--chain: expected a whole number (1e6 notation allowed), got  3" -- "${drag[@]}" --joint 3 --chain " 3" --to 10,4,0 --out "$tmp/o.ply"
expect 1 "--chain: expected 2 to 4097, got 1" -- "${drag[@]}" --joint 3 --to 1,2,3 --chain 1 --out "$tmp/o.ply"
expect 0 "dragged joint 3 along 2 joints" -- "${drag[@]}" --joint 3e0 --chain 2 --to 10,4,0 --out "$tmp/o.ply"
rm -f "$tmp/o.ply"
# Coordinates are decimal numbers: strtod's words and hexadecimal are refused as malformed (0x1p3 had been
# read as 8), a decimal beyond the bound by the drag.
expect 1 'expected x,y,z (three decimal numbers), got "nan,0,0"' -- "${drag[@]}" --joint 3 --to nan,0,0 --out "$tmp/o.ply"
expect 1 'expected x,y,z (three decimal numbers), got "1,inf,0"' -- "${drag[@]}" --joint 3 --to 1,inf,0 --out "$tmp/o.ply"
expect 1 'expected x,y,z (three decimal numbers), got "0x1p3,0,9"' -- "${drag[@]}" --joint 3 --to 0x1p3,0,9 --out "$tmp/o.ply"
expect 1 'expected x,y,z (three decimal numbers), got " 1,2,3"' -- "${drag[@]}" --joint 3 --to " 1,2,3" --out "$tmp/o.ply"
expect 2 "--joint 3 --to 1,1e999,0 (skeleton $tmp/skeleton.json): drag: the target position must be finite and within ±1e15, got (1, inf, 0)" -- "${drag[@]}" --joint 3 --to 1,1e999,0 --out "$tmp/o.ply"
# A target too far away is refused before anything is written; a file already at --out stays as it was.
echo OLD >"$tmp/kept.ply"
expect 2 "got (1e+300, 0, 0)" -- "${drag[@]}" --joint 3 --to 1e300,0,0 --out "$tmp/kept.ply"
[ "$(cat "$tmp/kept.ply")" = OLD ] || fail "a refused drag changed the file at --out"
expect 2 "--joint 3 --to 1,2,3 --chain 5 (skeleton $tmp/skeleton.json): drag: chain length 5 out of range [2, 4]" -- "${drag[@]}" --joint 3 --to 1,2,3 --chain 5 --out "$tmp/o.ply"
expect 2 "drag: chain length 3 out of range [2, 2]" -- "${drag[@]}" --joint 1 --to 1,2,3 --chain 3 --out "$tmp/o.ply"
expect 1 "expected x,y,z" -- "${drag[@]}" --joint 3 --to 1,2 --out "$tmp/o.ply"
expect 1 "expected x,y,z" -- "${drag[@]}" --joint 3 --to 1,2,3,4 --out "$tmp/o.ply"
expect 1 "--to is required" -- "${drag[@]}" --joint 3 --out "$tmp/o.ply"
echo '{"binding": [0, 1]}' >"$tmp/short_binding.json"
expect 2 "short_binding.json: binding: expected one node index per vertex (6), got 2" -- "${drag[@]}" --joint 3 --to 1,2,3 --binding "$tmp/short_binding.json" --out "$tmp/o.ply"
echo '{"binding": [0, 1, 2, 3, 4, 9]}' >"$tmp/far_binding.json"
expect 2 "far_binding.json: binding[4]: index 4 out of range [0, 4)" -- "${drag[@]}" --joint 3 --to 1,2,3 --binding "$tmp/far_binding.json" --out "$tmp/o.ply"
expect 3 "cannot" -- "${drag[@]}" --joint 3 --to 1,2,3 --out "$tmp/no/such/dir/o.ply"

# The fourth method of animate: a root translation moves the vertex at a joint's centre with it.
echo '{"root": {"translation": [0, 0, 2]}}' >"$tmp/lift.json"
expect 0 "" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/lift.json" --method metaball --out "$tmp/lifted.ply"
[ "$(rows "$tmp/lifted.ply" | sed -n 4p)" = "10 0 2" ] || fail "metaball animate: the vertex at joint 3 did not follow it: $(rows "$tmp/lifted.ply" | sed -n 4p)"

if [ "$failures" -ne 0 ]; then
    echo "$failures drag check(s) failed"
    exit 1
fi
echo "all drag checks passed"
