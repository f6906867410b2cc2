#!/usr/bin/env bash
# The CLI as a user meets it: exit codes and messages for bad command lines and bad files.
# usage: errors.sh BASESKIN_BINARY TEST_DATA_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib/expect.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/walk_bvh.sh"
data=$2

echo '{"spheres": [[0,0,0,1],[4,0,0,1],[7,0,0,0.5]], "bones": [[0,1],[1,2]]}' >"$tmp/skeleton.json"
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 1 0\n4 0 1\n6 0.5 0\n' >"$tmp/points.ply"
echo '{"bones": [{"bone": 1, "axis": [0,0,1], "degrees": 45}]}' >"$tmp/pose.json"
echo '{"fps": 10, "frames": [{}, {"bones": [{"bone": 1, "twist_degrees": 90}]}]}' >"$tmp/motion.json"

expect 0 "Usage" -- --help
expect 0 "--skeleton" -- animate --help
expect 0 "--frames" -- demo --help
expect 1 "A subcommand is required" --
expect 1 'unknown command "bogus" (the commands: animate, demo, drag, skeleton, rig)' -- bogus
expect 1 "--capture: the chain has no capture" -- demo --body chain --capture "$tmp/walk.bvh" --out "$tmp/demo"
expect 1 "--skeleton is required" -- animate --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply"
expect 1 "--pose or --motion" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --out "$tmp/o.ply"
printf 'HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 0\n}\nMOTION\nFrames: 0\nFrame Time: 0.1\n' >"$tmp/capture.bvh"
expect 1 "is a motion capture (BVH), not a pose: give it as --motion" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/capture.bvh" --out "$tmp/o.ply"
# A JSON motion under a .bvh name is told how JSON motions are named (the motion's hint, not a capture's).
cp "$tmp/motion.json" "$tmp/json_motion.bvh"
expect 2 "json_motion.bvh:1: expected \"HIERARCHY\", got \"{\" (the file looks like JSON: a JSON motion is read from a name that does not end in .bvh)" -- \
    animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --motion "$tmp/json_motion.bvh" --out "$tmp/o"
expect 1 "excludes" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --motion "$tmp/motion.json" --out "$tmp/o"
expect 1 "--method" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply" --method xyz
expect 1 "File does not exist" -- animate --skeleton "$tmp/nope.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply"

echo '{"spheres": [[0,0,0,1],[4,0,0,-1]], "bones": [[0,1]]}' >"$tmp/bad_skeleton.json"
expect 2 "bad_skeleton.json: spheres[1]: radius must be > 0" -- animate --skeleton "$tmp/bad_skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply"
echo '{"bones": [{"bone": 5}]}' >"$tmp/bad_pose.json"
expect 2 "bad_pose.json: bones[0].bone: index 5 out of range" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/bad_pose.json" --out "$tmp/o.ply"
printf 'ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 1 0\n' >"$tmp/short.ply"
expect 2 "short.ply" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/short.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply"
expect 3 "cannot" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/no/such/dir/o.ply"

# Normals in the points file are passed through, not deformed: said (a renderer would light the posed
# body by its rest normals, silently).
printf 'ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nproperty float nx\nproperty float ny\nproperty float nz\nend_header\n1 1 0 0 1 0\n4 0 1 0 0 1\n' >"$tmp/normals.ply"
expect 0 "note: the points' normals (nx, ny, nz) are written as read, not deformed" -- \
    animate --skeleton "$tmp/skeleton.json" --points "$tmp/normals.ply" --pose "$tmp/pose.json" --out "$tmp/normals_out.ply"
out=$("$bin" animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/plain_out.ply" 2>&1)
grep -q "normals" <<<"$out" && fail "a file without normals was noted as having them: $out"

# The file's weight columns are written as read (they came back scaled to sum to 1); --auto-weights leaves
# them unread (a sum of 0.998 was refused with it); a slot of weight 0 may name bone -1, or one the
# skeleton has not (2e9: LBS on the CPU read its matrix past the table before the skinners pointed such
# slots at bone 0).
weights_head='ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nproperty int bone0\nproperty int bone1\nproperty int bone2\nproperty int bone3\nproperty float weight0\nproperty float weight1\nproperty float weight2\nproperty float weight3\nend_header\n'
printf "$weights_head"'1 1 0 0 1 -1 2000000000 0.4995 0.5 0 0\n4 0 1 1 -1 -1 -1 1 0 0 0\n' >"$tmp/weights.ply"
printf "$weights_head"'1 1 0 0 1 0 0 0.498 0.5 0 0\n4 0 1 1 0 0 0 1 0 0 0\n' >"$tmp/weights_off.ply"
expect 0 "" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/weights.ply" --pose "$tmp/pose.json" --method lbs --out "$tmp/weights_out.ply"
[ "$(sed '1,/^end_header/d' "$tmp/weights_out.ply" | cut -d' ' -f4-)" = "$(sed '1,/^end_header/d' "$tmp/weights.ply" | cut -d' ' -f4-)" ] ||
    fail "the weight columns changed: $(cat "$tmp/weights_out.ply")"
expect 2 "vertex 0: weights sum to 0.99799" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/weights_off.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply"
expect 0 "" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/weights_off.ply" --pose "$tmp/pose.json" --auto-weights --out "$tmp/auto_out.ply"
[ "$(sed '1,/^end_header/d' "$tmp/auto_out.ply" | cut -d' ' -f4-)" = "$(sed '1,/^end_header/d' "$tmp/weights_off.ply" | cut -d' ' -f4-)" ] ||
    fail "--auto-weights changed the weight columns: $(cat "$tmp/auto_out.ply")"

# An output that cannot be written whole (a file-size limit stops it as a full disk would) is an I/O error,
# and the file that was there keeps its content (host/output_file.hpp). (An output that is the run's own
# input is refused before the run: tests/cli/rig.sh.)
{
    printf 'ply\nformat ascii 1.0\nelement vertex 2000\nproperty float x\nproperty float y\nproperty float z\nend_header\n'
    for i in $(seq 2000); do echo "$((i % 7)).5 0.$((i % 10)) 0.25"; done
} >"$tmp/many.ply"
cp "$tmp/many.ply" "$tmp/many-before.ply"
cp "$tmp/many.ply" "$tmp/many-input.ply"
out=$( (trap '' XFSZ; ulimit -f 8; "$bin" animate --skeleton "$tmp/skeleton.json" --points "$tmp/many-input.ply" --pose "$tmp/pose.json" \
        --out "$tmp/many.ply") 2>&1)
got=$?
[ "$got" -eq 3 ] && grep -qF "many.ply: write failed (File too large)" <<<"$out" || fail "a write over the file-size limit -> exit $got: $out"
cmp -s "$tmp/many.ply" "$tmp/many-before.ply" || fail "the file there changed or went when its write failed"
[ "$(ls -A "$tmp" | grep -c 'many\.ply')" -eq 1 ] || fail "a temporary was left beside many.ply: $(ls -A "$tmp")"
# /dev/stdout as the output is written where the shell sends it, appended (a file there was replaced by a
# rename, which lost what came before).
echo HEADER >"$tmp/stream.txt"
"$bin" animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --format ascii \
    --out /dev/stdout >>"$tmp/stream.txt" 2>&1 || fail "animate --out /dev/stdout failed"
[ "$(head -1 "$tmp/stream.txt")" = HEADER ] && grep -qx 'ply' "$tmp/stream.txt" || fail "--out /dev/stdout: $(cat "$tmp/stream.txt")"
# Where the output is standard output, the summaries and notes go to standard error: they were written into
# the PLY (before its header through a file, after its data through a pipe), exit 0. animate's note on
# normals, drag's binding and summary lines; each file read back.
"$bin" animate --skeleton "$tmp/skeleton.json" --points "$tmp/normals.ply" --pose "$tmp/pose.json" --out /dev/stdout \
    >"$tmp/to_stdout.ply" 2>"$tmp/to_stdout.err" || fail "animate --out /dev/stdout with normals failed"
grep -qF "note: the points' normals" "$tmp/to_stdout.err" || fail "the note on normals went elsewhere: $(cat "$tmp/to_stdout.err")"
"$bin" drag --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --joint 2 --to 7,1,0 --out /dev/stdout 2>"$tmp/drag.err" |
    cat >"$tmp/dragged.ply"
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "drag --out /dev/stdout failed: $(cat "$tmp/drag.err")"
grep -qF "wrote 3 points to /dev/stdout" "$tmp/drag.err" || fail "drag's summary went elsewhere: $(cat "$tmp/drag.err")"
for written in to_stdout dragged; do
    [ "$(head -1 "$tmp/$written.ply")" = ply ] && ! grep -q "note\|wrote\|binding" "$tmp/$written.ply" || fail "$written.ply: $(cat "$tmp/$written.ply")"
    "$bin" animate --skeleton "$tmp/skeleton.json" --points "$tmp/$written.ply" --pose "$tmp/pose.json" --out "$tmp/$written-again.ply" \
        >/dev/null 2>&1 || fail "$written.ply cannot be read back"
done

# Input limits (README "Input limits"): a file over its kind's size (sparse: no disk used) is invalid input,
# a FIFO is an I/O error rather than a wait for a writer, a point count beyond the limit a bad command line.
truncate -s $((256 * 1024 * 1024 + 1)) "$tmp/huge.json"
expect 2 "huge.json: 268435457 bytes, more than the 268435456 bytes a JSON file may have" -- animate --skeleton "$tmp/huge.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply"
mkfifo "$tmp/fifo.ply"
expect 3 "fifo.ply: cannot read: not a regular file" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/fifo.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply"
expect 1 "--points: expected 1 to 100000000, got 100000001" -- demo --body chain --points 100000001 --out "$tmp/demo"
expect 1 "--points: expected 1 to 100000000, got 1e9" -- rig --model "$tmp/skeleton.json" --points 1e9 --out "$tmp/rig"
expect 1 "--points: expected a whole number (1e6 notation allowed), got 2.5e3x" -- demo --body chain --points 2.5e3x --out "$tmp/demo"
expect 1 "--points: expected a whole number (1e6 notation allowed), got 0.5" -- demo --body chain --points 0.5 --out "$tmp/demo"
# Counts are decimal: strtod alone read "0x10" as 16 and " 8" as 8.
expect 1 "--points: expected a whole number (1e6 notation allowed), got 0x10" -- demo --body chain --points 0x10 --out "$tmp/demo"
expect 1 "--threads: expected a whole number (1e6 notation allowed), got  1" -- demo --body chain --threads " 1" --out "$tmp/demo"
# Option values out of their ranges are bad command lines, NaN included (a range check alone passes it).
expect 1 "--threads: expected 0 to 1024, got -1" -- demo --body chain --threads -1 --out "$tmp/demo"
expect 1 "--threads: expected a whole number (1e6 notation allowed), got 2.5" -- demo --body chain --threads 2.5 --out "$tmp/demo"
expect 1 "--table-samples: expected 32 to 65536, got 1e6" -- demo --body chain --table-samples 1e6 --out "$tmp/demo"
expect 1 "--threads: expected 0 to 1024, got 4096" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply" --threads 4096
expect 1 "--radius-coeff: expected a finite number from" -- skeleton --points "$tmp/points.ply" --radius-coeff nan --out "$tmp/s.json"
expect 1 "--frames: abc: expected A:B" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --motion "$tmp/motion.json" --frames abc --out "$tmp/o"
expect 1 "--frames: 3:2: expected A:B" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --motion "$tmp/motion.json" --frames 3:2 --out "$tmp/o"

# The baseline method deforms bends and twists, and refuses a joint folded beyond its stated limit.
echo '{"bones": [{"bone": 1, "twist_degrees": 270}], "root": {"translation": [1, 2, 3]}}' >"$tmp/twist.json"
expect 0 "" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/twist.json" --out "$tmp/twisted.ply" --method baseline
expect 0 "" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/bent.ply" --method baseline
echo '{"bones": [{"bone": 1, "axis": [0,0,1], "degrees": 175}]}' >"$tmp/fold.json"
expect 4 "unsupported: this pose folds a joint to 184.594 degrees between consecutive bones' generators (their axes 175 apart, plus 9.594 where the cones' slopes add)" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/fold.json" --out "$tmp/folded.ply" --method baseline
expect 4 "at joint \"sphere 1\" (between bones 0 and 1)" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/fold.json" --out "$tmp/folded.ply" --method baseline
# Just past the limit, the angle is told from it (six digits had read "170").
echo '{"spheres": [[0,0,0,1],[4,0,0,1],[7,0,0,1]], "bones": [[0,1],[1,2]]}' >"$tmp/even.json"
echo '{"bones": [{"bone": 1, "axis": [0,0,1], "degrees": 170.0001}]}' >"$tmp/just_past.json"
expect 4 "folds a joint to 170.0001" -- animate --skeleton "$tmp/even.json" --points "$tmp/points.ply" --pose "$tmp/just_past.json" --out "$tmp/o.ply" --method baseline
# In a motion, the refused frame is named and no frame is written.
echo '{"fps": 10, "frames": [{}, {}, {"bones": [{"bone": 1, "axis": [0,0,1], "degrees": 175}]}, {}]}' >"$tmp/fold_motion.json"
expect 4 "fold_motion.json: frame 2: this pose folds a joint to 184.594" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --motion "$tmp/fold_motion.json" --out "$tmp/folded_frames" --method baseline
if ls "$tmp/folded_frames"/*.ply >/dev/null 2>&1; then fail "frames were written before the refused frame"; fi

# Backends and the baseline's tables: --exact and --table-samples agree with the default to the tables'
# tolerance; --backend cuda without a device (as in CI) is unsupported, for every method, and
# out-of-range table samples are a bad command line.
expect 0 "" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/exact.ply" --method baseline --exact --format ascii
expect 0 "" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/table.ply" --method baseline --table-samples 64 --format ascii
paste -d' ' <(sed -n '/end_header/,$p' "$tmp/exact.ply" | tail -n +2) <(sed -n '/end_header/,$p' "$tmp/table.ply" | tail -n +2) |
    awk '{d = ($1-$4)^2 + ($2-$5)^2 + ($3-$6)^2; if (d > 1e-8) bad = 1} END {exit bad}' ||
    fail "--exact and --table-samples 64 disagree beyond 1e-4"
expect 1 "--table-samples" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply" --method baseline --table-samples 16
# A body 1e8 from the origin keeps its shape (deformed about an origin beside it, written back in double):
# at the rest pose, with or without a root translation, every method gives each point back within 1e-6;
# deformed in place, float's grid of 8 units there had collapsed it.
echo '{"spheres": [[100000000,0,0,1],[100000004,0,0,1],[100000007,0,0,0.5]], "bones": [[0,1],[1,2]]}' >"$tmp/far_skeleton.json"
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\nend_header\n100000001 1 0\n100000004 0 1\n100000006 0.5 0\n' >"$tmp/far_points.ply"
echo '{}' >"$tmp/rest_pose.json"
echo '{"fps": 10, "frames": [{}, {"root": {"translation": [0.25, 0, 0]}}]}' >"$tmp/far_motion.json"
for method in lbs dqs baseline metaball; do
    expect 0 "" -- animate --skeleton "$tmp/far_skeleton.json" --points "$tmp/far_points.ply" --pose "$tmp/rest_pose.json" --method $method --out "$tmp/far_$method.ply"
    expect 0 "" -- animate --skeleton "$tmp/far_skeleton.json" --points "$tmp/far_points.ply" --motion "$tmp/far_motion.json" --method $method --out "$tmp/far_$method"
    for out in "$tmp/far_$method.ply:0" "$tmp/far_$method/frame_00001.ply:0.25"; do
        paste -d' ' <(sed '1,/end_header/d' "$tmp/far_points.ply") <(sed '1,/end_header/d' "${out%:*}") |
            awk -v dx="${out##*:}" '{d = ($1+dx-$4)^2 + ($2-$5)^2 + ($3-$6)^2; if (d > 1e-12) bad = 1} END {exit bad}' ||
            fail "--method $method: a body 1e8 from the origin did not come back at rest (${out%:*})"
    done
done
# Weights naming a bone the skeleton lacks are refused by every method; baseline's refusal says how to
# leave them unread, and with --auto-weights the points deform.
printf 'ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nproperty int bone0\nproperty int bone1\nproperty int bone2\nproperty int bone3\nproperty float weight0\nproperty float weight1\nproperty float weight2\nproperty float weight3\nend_header\n1 1 0 0 0 0 0 1 0 0 0\n4 0 1 9 0 0 0 1 0 0 0\n' >"$tmp/foreign_weights.ply"
expect 2 "vertex 1: influence 0: bone index 9 out of range [0, 2) (--method baseline uses no weights: --auto-weights leaves them unread)" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/foreign_weights.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply" --method baseline
expect 0 "" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/foreign_weights.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply" --method baseline --auto-weights
# --exact and --table-samples shape baseline's tables only; with another method they are refused, not ignored.
expect 1 "--exact: applies to --method baseline only, not dqs" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply" --method dqs --exact
expect 1 "--table-samples: applies to --method baseline only, not lbs" -- demo --body chain --method lbs --table-samples 64 --out "$tmp/demo"
# An empty output path is a bad command line, for every command that writes.
expect 1 "--out: expected a path, got an empty one" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out ""
expect 1 "--out: expected a path, got an empty one" -- demo --body chain --out ""
# "-" is standard output to most tools; the commands print their summaries there, so it is refused (it made a file named "-").
expect 1 '--out: expected a path; "-" (standard output) is not one' -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out -
expect 1 "--out: expected a path, got an empty one" -- rig --model "$tmp/points.ply" --out ""
expect 1 "--out: expected a path, got an empty one" -- skeleton --points "$tmp/points.ply" --out ""
expect 1 "--out: expected a path, got an empty one" -- drag --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --joint 1 --to 0,0,0 --out ""
if ! "$bin" demo --help | grep -q -- "--backend"; then fail "demo has no --backend option"; fi
if ! nvidia-smi -L >/dev/null 2>&1; then  # no GPU here (as in CI)
    expect 4 "--backend cuda" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply" --method baseline --backend cuda
    expect 4 "--backend cuda" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/o.ply" --method metaball --backend cuda
fi

# A skeleton with a junction: every method takes it.
echo '{"spheres": [[0,0,0,1],[4,0,0,1],[7,2,0,0.6],[7,-2,0,0.6]], "bones": [[0,1],[1,2],[1,3]]}' >"$tmp/junction.json"
expect 0 "" -- animate --skeleton "$tmp/junction.json" --points "$tmp/points.ply" --pose "$tmp/twist.json" --out "$tmp/j.ply" --method dqs
expect 0 "" -- animate --skeleton "$tmp/junction.json" --points "$tmp/points.ply" --pose "$tmp/twist.json" --out "$tmp/j.ply" --method metaball
expect 0 "" -- animate --skeleton "$tmp/junction.json" --points "$tmp/points.ply" --pose "$tmp/twist.json" --out "$tmp/j.ply" --method baseline

# Success paths: a pose gives one PLY with the input's format, a motion a folder of frames.
expect 0 "" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --pose "$tmp/pose.json" --out "$tmp/posed.ply" --method lbs
head -2 "$tmp/posed.ply" | grep -q "format ascii" || fail "ASCII input did not give ASCII output"
expect 0 "wrote 2 frames of 3 points" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --motion "$tmp/motion.json" --out "$tmp/frames"
[ -f "$tmp/frames/frame_00001.ply" ] || fail "motion frames missing"
# A folder under a frame's name is found before any frame is written (it was found after frame 0 was).
mkdir -p "$tmp/blocked/frame_00001.ply"
expect 3 "frame_00001.ply: is a folder; frame 1 cannot be written there (nothing was written)" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --motion "$tmp/motion.json" --out "$tmp/blocked"
[ -e "$tmp/blocked/frame_00000.ply" ] && fail "frame 0 written before the folder under frame 1's name was found"
mkdir -p "$tmp/demo_blocked/frame_00001.ply"
expect 3 "frame_00001.ply: is a folder; frame 1 cannot be written there (nothing was written)" -- demo --body chain --points 100 --frames 2 --out "$tmp/demo_blocked"
[ -e "$tmp/demo_blocked/skeleton.json" ] && fail "the demo wrote its skeleton before the folder under frame 1's name was found"
# The demo checks every frame's pose before it writes anything, as animate does: a capture whose last frame
# folds a joint 181° (demo frame 9 shows its frame 2) is refused with the frame named and no file written
# (skeleton.json, rest.ply and frames 0 to 8 had been written before the refusal, which named no frame).
write_walk_bvh "$tmp/walk.bvh"
sed 's/^0 9 2 0 0 0 0 0 60 0 0 -80 0 0 20$/0 9 2 0 0 0 0 0 0 180 0 0 0 0 20/' "$tmp/walk.bvh" >"$tmp/fold.bvh"
expect 4 "frame 9 (frame 2 of $tmp/fold.bvh): this pose folds a joint to 181.606 degrees" -- demo --capture "$tmp/fold.bvh" --points 3000 --frames 10 --out "$tmp/demo_fold"
[ -z "$(ls -A "$tmp/demo_fold" 2>/dev/null)" ] || fail "the demo wrote files before the refused frame: $(ls "$tmp/demo_fold")"
expect 0 "wrote 1 frame of 3 points" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --motion "$tmp/motion.json" --frames 1: --out "$tmp/one_frame"
# A range past the motion's end writes the frames there are, and says so.
expect 0 "note: --frames 1:9 runs past the motion's 2 frames: wrote frames 1 to 1" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --motion "$tmp/motion.json" --frames 1:9 --out "$tmp/past_end"
# A B too large to hold is past the end too (it said "expected whole numbers").
expect 0 "note: --frames 1:99999999999999999999999 runs past the motion's 2 frames: wrote frames 1 to 1" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --motion "$tmp/motion.json" --frames 1:99999999999999999999999 --out "$tmp/past_end"
# A motion of more than 100,000 frames numbers its files with as many digits as its last frame needs, so that
# they sort in frame order (frame_100000.ply came before frame_99999.ply); an earlier run's names of another
# width are noted as other frames.
echo "{\"fps\": 30, \"frames\": [$(yes '{}' | head -n 100001 | paste -sd,)]}" >"$tmp/long_motion.json"
mkdir -p "$tmp/long_frames" && cp "$tmp/frames/frame_00001.ply" "$tmp/long_frames/frame_99999.ply"
expect 0 "note: $tmp/long_frames also holds 1 frame file of an earlier run" -- animate --skeleton "$tmp/skeleton.json" \
    --points "$tmp/points.ply" --motion "$tmp/long_motion.json" --frames 99999: --out "$tmp/long_frames"
[ "$(LC_ALL=C ls "$tmp/long_frames" | tr '\n' ' ')" = "frame_099999.ply frame_100000.ply frame_99999.ply " ] ||
    fail "frames of a 100,001-frame motion: $(ls "$tmp/long_frames")"
# Counts as the README writes them: 2e3 is 2000. The demo says which bones baseline tabulates (a bone
# read by fewer than 700 points takes the direct construction; it had said "tables" for a body of none).
expect 0 "baseline (tables for 1 of 3 bones)" -- demo --body chain --points 2e3 --frames 3 --out "$tmp/demo"
expect 0 "baseline (direct: too few points a bone for tables)" -- demo --body chain --points 50 --frames 2 --out "$tmp/demo_few"
[ -f "$tmp/demo/frame_00002.ply" ] && [ -f "$tmp/demo/skeleton.json" ] || fail "demo files missing"
# A second run of fewer frames into the same folder says that the earlier run's last frame is still there.
expect 0 "note: $tmp/demo also holds 1 frame file of an earlier run, left as it was" -- demo --body chain --points 2000 --frames 2 --out "$tmp/demo"
expect 0 "note: $tmp/frames also holds 1 frame file of an earlier run" -- animate --skeleton "$tmp/skeleton.json" --points "$tmp/points.ply" --motion "$tmp/motion.json" --frames 1: --out "$tmp/frames"
expect 3 "no-such.bvh: no such capture" -- demo --capture "$tmp/no-such.bvh" --points 100 --frames 2 --out "$tmp/demo"
if [ -f /usr/share/assimp/models/BVH/01_01.bvh ]; then
    expect 0 "a human moving by 01_01.bvh, baseline" -- demo --points 3000 --frames 2 --out "$tmp/human"
    [ -f "$tmp/human/frame_00001.ply" ] || fail "human demo frames missing"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures CLI check(s) failed"
    exit 1
fi
echo "all CLI checks passed"
