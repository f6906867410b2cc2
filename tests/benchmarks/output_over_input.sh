#!/usr/bin/env bash
# baseskin-bench refuses a --json or --csv that is one of its inputs (the capture, here through a link):
# exit code 1 before any measurement, the input untouched (the CSV replaced the capture). And a --csv that
# is the --json file under another spelling (the CSV replaced the JSON, exit 0).
# usage: output_over_input.sh BENCH_BINARY
bench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Zrotation Yrotation Xrotation\n  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n' >"$tmp/capture.bvh"
cp "$tmp/capture.bvh" "$tmp/before.bvh"
ln -s "$tmp/capture.bvh" "$tmp/results.csv"
out=$("$bench" --body human --capture "$tmp/capture.bvh" --sizes 1000 --repeats 1 --methods lbs --csv "$tmp/results.csv" 2>&1)
rc=$?
if [ "$rc" -ne 1 ] || ! grep -qF -- "--csv: $tmp/results.csv is the --capture file $tmp/capture.bvh" <<<"$out" ||
    ! cmp -s "$tmp/capture.bvh" "$tmp/before.bvh"; then
    echo "FAIL: exit $rc (want 1, the capture untouched): $out"
    exit 1
fi
echo "an output that is the capture is refused"
# The --peer-python the shell finds through PATH is an input too (the CSV had replaced it).
mkdir "$tmp/bin"
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/mypython"
chmod +x "$tmp/bin/mypython"
cp "$tmp/bin/mypython" "$tmp/before_python"
out=$(PATH="$tmp/bin:$PATH" "$bench" --sizes 1000 --repeats 1 --methods lbs --peer-python mypython --csv "$tmp/bin/mypython" 2>&1)
rc=$?
if [ "$rc" -ne 1 ] || ! grep -qF -- "--csv: $tmp/bin/mypython is the --peer-python file" <<<"$out" || ! cmp -s "$tmp/bin/mypython" "$tmp/before_python"; then
    echo "FAIL: --csv over the --peer-python found through PATH: exit $rc (want 1, the program untouched): $out"
    exit 1
fi
echo "an output that is the peer's python, found through PATH, is refused"
mkdir "$tmp/out"
for spelling in "$tmp/out/../out/results" "./results"; do
    out=$(cd "$tmp/out" && "$bench" --sizes 1000 --repeats 1 --methods lbs --json "$tmp/out/results" --csv "$spelling" 2>&1)
    rc=$?
    if [ "$rc" -ne 1 ] || ! grep -qF -- "is the same file as --json" <<<"$out" || [ -e "$tmp/out/results" ]; then
        echo "FAIL: --csv $spelling beside --json $tmp/out/results: exit $rc (want 1, nothing written): $out"
        exit 1
    fi
done
# A dangling link to the other output: writing it creates that file.
ln -s "$tmp/out/real.json" "$tmp/out/link.json"
out=$("$bench" --sizes 1000 --repeats 1 --methods lbs --json "$tmp/out/link.json" --csv "$tmp/out/real.json" 2>&1)
rc=$?
if [ "$rc" -ne 1 ] || ! grep -qF -- "is the same file as --json" <<<"$out" || [ -e "$tmp/out/real.json" ]; then
    echo "FAIL: --json through a dangling link to the --csv file: exit $rc (want 1, nothing written): $out"
    exit 1
fi
echo "a --csv that is the --json file is refused"
