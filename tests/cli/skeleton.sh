#!/usr/bin/env bash
# `baseskin skeleton` as a user meets it: a capsule mesh (OFF) and its vertices as a point set (PLY) give
# a skeleton and a binding; bad command lines and bad files give the documented exit codes.
# usage: skeleton.sh BASESKIN_BINARY TEST_DATA_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/expect.sh"

# A capsule about x (radius 1, axis from -2 to 2): rings of 24 vertices, a pole at each end.
awk 'BEGIN {
    pi = 3.14159265358979; seg = 24; n = 0
    for (i = 1; i < 6; ++i) { a = pi / 2 * i / 6; x[n] = -2 - cos(a); r[n] = sin(a); ++n }
    for (i = 0; i <= 12; ++i) { x[n] = -2 + 4 * i / 12; r[n] = 1; ++n }
    for (i = 5; i >= 1; --i) { a = pi / 2 * i / 6; x[n] = 2 + cos(a); r[n] = sin(a); ++n }
    verts = n * seg + 2; faces = 2 * seg * n
    print "OFF"; print verts, faces, 0
    print -3, 0, 0
    for (k = 0; k < n; ++k) for (s = 0; s < seg; ++s) print x[k], r[k] * cos(2 * pi * s / seg), r[k] * sin(2 * pi * s / seg)
    print 3, 0, 0
    for (s = 0; s < seg; ++s) print 3, 0, 1 + (s + 1) % seg, 1 + s
    for (k = 0; k + 1 < n; ++k) for (s = 0; s < seg; ++s) {
        a = 1 + k * seg + s; b = 1 + k * seg + (s + 1) % seg; c = b + seg; d = a + seg
        print 3, a, b, c; print 3, a, c, d
    }
    last = verts - 1
    for (s = 0; s < seg; ++s) print 3, last, 1 + (n - 1) * seg + s, 1 + (n - 1) * seg + (s + 1) % seg
}' >"$tmp/capsule.off"
{
    printf 'ply\nformat ascii 1.0\nelement vertex %s\nproperty float x\nproperty float y\nproperty float z\nend_header\n' \
        "$(sed -n 2p "$tmp/capsule.off" | cut -d' ' -f1)"
    sed -n "3,$(( $(sed -n 2p "$tmp/capsule.off" | cut -d' ' -f1) + 2 ))p" "$tmp/capsule.off"
} >"$tmp/capsule_points.ply"

expect 0 "--intervals" -- skeleton --help
expect 0 "wrote $tmp/s.json and $tmp/s.binding.json" -- skeleton --mesh "$tmp/capsule.off" --out "$tmp/s.json"
grep -q '"spheres"' "$tmp/s.json" || fail "no skeleton written"
grep -q '"binding"' "$tmp/s.binding.json" || fail "no binding written"
expect 0 "0 junctions" -- skeleton --points "$tmp/capsule_points.ply" --intervals 6 --radius-coeff 0.01 --threads 1 --out "$tmp/p.json"

# Standard output has no folder beside it for the binding: refused before the extraction unless
# --out-binding names the binding's file; then the skeleton is what goes down the pipe, the summary to stderr.
expect 1 "/dev/stdout is standard output: give --out-binding FILE for the binding" -- skeleton --mesh "$tmp/capsule.off" --out /dev/stdout
# Standard output sent to a file is standard output still (its binding would be /dev/stdout.binding.json).
out=$("$bin" skeleton --mesh "$tmp/capsule.off" --out /dev/stdout 2>&1 >"$tmp/redirected.json")
[ $? -eq 1 ] && grep -qF "is standard output: give --out-binding FILE" <<<"$out" || fail "--out /dev/stdout into a file: $out"
"$bin" skeleton --mesh "$tmp/capsule.off" --out /dev/stdout --out-binding "$tmp/piped.binding.json" 2>"$tmp/piped.err" >"$tmp/piped.json" ||
    fail "skeleton --out /dev/stdout --out-binding failed: $(cat "$tmp/piped.err")"
cmp -s "$tmp/piped.json" "$tmp/s.json" || fail "the skeleton sent down standard output differs from the one written to a file"
cmp -s "$tmp/piped.binding.json" "$tmp/s.binding.json" || fail "--out-binding did not get the binding"
grep -qF "wrote /dev/stdout and $tmp/piped.binding.json" "$tmp/piped.err" || fail "the summary went elsewhere: $(cat "$tmp/piped.err")"
expect 1 "--out-binding: the binding's file is the same file as --out" -- skeleton --mesh "$tmp/capsule.off" --out "$tmp/b.json" --out-binding "$tmp/./b.json"
expect 1 "/dev/null is not a regular file: give --out-binding FILE for the binding" -- skeleton --mesh "$tmp/capsule.off" --out /dev/null
# A folder at --out is named as one, with or without --out-binding (it was called "not a regular file" and
# sent to --out-binding, which then failed on the folder).
mkdir -p "$tmp/out_folder"
expect 1 "--out: $tmp/out_folder is a folder: --out names the skeleton's JSON file ($tmp/out_folder/skeleton.json, say)" -- skeleton --mesh "$tmp/capsule.off" --out "$tmp/out_folder"
expect 1 "--out: $tmp/out_folder is a folder" -- skeleton --mesh "$tmp/capsule.off" --out "$tmp/out_folder" --out-binding "$tmp/folder.binding.json"

# A skeleton that baseline skinning refuses at rest is still written, with a note saying so (Debian's
# Wuson at these settings folds a joint to 181°).
wuson=/usr/share/assimp/models/PLY/Wuson.ply
if [ -f "$wuson" ]; then
    expect 0 "note: baseline skinning refuses this skeleton: the skeleton's rest shape folds a joint" -- \
        skeleton --mesh "$wuson" --intervals 64 --radius-coeff 1 --out "$tmp/wuson.json"
    [ -f "$tmp/wuson.json" ] || fail "the refused skeleton was not written"
fi
out=$("$bin" skeleton --mesh "$tmp/capsule.off" --out "$tmp/s2.json" 2>&1)
grep -q "baseline skinning refuses" <<<"$out" && fail "a capsule's skeleton was noted as refused: $out"

# A binding that cannot be written whole (here: beyond a file-size limit, as a full disk would) leaves the
# earlier skeleton and binding as they were: both are written before either replaces its file (the
# binding used to be removed, and the new skeleton put beside nothing).
cp "$tmp/s.json" "$tmp/pair.json"; cp "$tmp/s.binding.json" "$tmp/pair.binding.json"
skeleton_kb=$(( ($(stat -c %s "$tmp/s.json") + 1023) / 1024 ))
(( $(stat -c %s "$tmp/s.binding.json") > (skeleton_kb + 1) * 1024 )) || fail "the binding is not larger than the limit"
out=$( (trap '' XFSZ; ulimit -f $((skeleton_kb + 1)); "$bin" skeleton --points "$tmp/capsule_points.ply" --intervals 6 \
    --radius-coeff 0.01 --out "$tmp/pair.json") 2>&1)
code=$?
[ "$code" -eq 3 ] && grep -q "pair.binding.json: write failed (File too large)" <<<"$out" || fail "binding beyond the limit: exit $code: $out"
cmp -s "$tmp/s.json" "$tmp/pair.json" || fail "the skeleton was replaced though its binding could not be written"
cmp -s "$tmp/s.binding.json" "$tmp/pair.binding.json" || fail "the earlier binding was not kept"

expect 1 "--mesh or --points" -- skeleton --out "$tmp/x.json"
expect 1 "--out: $tmp/capsule_points.ply is the --points file" -- skeleton --points "$tmp/capsule_points.ply" --out "$tmp/capsule_points.ply"
cp "$tmp/capsule.off" "$tmp/c.binding.json"
expect 1 "--out: $tmp/c.binding.json is the --mesh file" -- skeleton --mesh "$tmp/c.binding.json" --out "$tmp/c.json"
expect 1 "excludes" -- skeleton --mesh "$tmp/capsule.off" --points "$tmp/capsule_points.ply" --out "$tmp/x.json"
# A format assimp has no reader for: said once, plainly (assimp's own words named the path a second time).
printf 'hello\n' >"$tmp/notes.zzz"
expect 2 "$tmp/notes.zzz: cannot read as a mesh: assimp has no reader for this file's format" -- skeleton --mesh "$tmp/notes.zzz" --out "$tmp/x.json"
# A capture has no mesh: said so (assimp's own words were "aiScene::mNumMeshes is 0").
printf 'HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Zrotation Yrotation Xrotation\n  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n' >"$tmp/walk.bvh"
expect 2 "$tmp/walk.bvh: a motion capture (BVH) holds a skeleton and its motion, no mesh" -- skeleton --mesh "$tmp/walk.bvh" --out "$tmp/x.json"
expect 1 "--intervals" -- skeleton --mesh "$tmp/capsule.off" --intervals 1 --out "$tmp/x.json"
expect 1 "--radius-coeff" -- skeleton --mesh "$tmp/capsule.off" --radius-coeff 0 --out "$tmp/x.json"
# Numbers are decimal: hexadecimal is refused, and so is a number of 130,000 digits, as beyond the range
# (a std::regex check had overflowed the stack on it).
expect 1 "got 0x1p-3" -- skeleton --mesh "$tmp/capsule.off" --radius-coeff 0x1p-3 --out "$tmp/x.json"
expect 1 "--radius-coeff: expected a finite number from 1e-04 to 1, got 1111" -- skeleton --mesh "$tmp/capsule.off" --radius-coeff "$(head -c 130000 /dev/zero | tr '\0' 1)" --out "$tmp/x.json"
expect 1 "File does not exist" -- skeleton --mesh "$tmp/none.obj" --out "$tmp/x.json"
echo "not a mesh" >"$tmp/garbage.obj"
expect 2 "garbage.obj: cannot read as a mesh" -- skeleton --mesh "$tmp/garbage.obj" --out "$tmp/x.json"
printf 'OFF\n4 2 0\n0 0 0\n1 0 0\n2 0 0\n3 0 0\n3 0 1 2\n3 1 2 3\n' >"$tmp/flat.off"
expect 2 "flat.off: the surface has no area" -- skeleton --mesh "$tmp/flat.off" --out "$tmp/x.json"
expect 3 "cannot open for writing" -- skeleton --mesh "$tmp/capsule.off" --out "$tmp/no/such/dir/s.json"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all skeleton CLI checks passed"
