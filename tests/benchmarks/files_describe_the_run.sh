#!/usr/bin/env bash
# baseskin-bench's files say how their rows were taken: the machine, the threads and frames of the run, each row's fastest
# and slowest frame around its median, and what a frame uploads as the GPU front uploads it (a dual
# quaternion a bone for DQS, 32 bytes; a matrix a bone for LBS, 48). usage: files_describe_the_run.sh BENCH_BINARY
bench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$bench" --sizes 2000 --repeats 3 --threads 1 --methods lbs dqs --json "$tmp/b.json" --csv "$tmp/b.csv" >"$tmp/out.txt" 2>&1 ||
    fail "the bench failed: $(cat "$tmp/out.txt")"
grep -q '"threads": 1,' "$tmp/b.json" || fail "no threads in the JSON"
grep -q '"repeats": 3,' "$tmp/b.json" || fail "no repeats in the JSON"
grep -qF "CPU rows on 1 thread, encoding included; 3 timed frames a row" "$tmp/out.txt" || fail "the table does not say its threads: $(head -3 "$tmp/out.txt")"
# The machine: its processor and logical CPUs (no GPU rows here: gpu null).
cpus=$(getconf _NPROCESSORS_ONLN)
grep -qE "^Machine: .+, $cpus logical CPUs\.$" "$tmp/out.txt" || fail "the table does not say the machine: $(head -3 "$tmp/out.txt")"
grep -qE "\"cpu\": \".+, $cpus logical CPUs\"," "$tmp/b.json" && grep -q '"gpu": null,' "$tmp/b.json" || fail "no machine in the JSON"
# CSV: body,threads,repeats,points,method,backend,encode,median,fastest,slowest,...,frame_table_bytes (18th)
awk -F, 'NR == 1 { if ($2 != "threads" || $9 != "deform_seconds_fastest" || $18 != "frame_table_bytes") exit 1; next }
         { if ($2 != 1 || $3 != 3 || !($9 <= $8 && $8 <= $10)) exit 1 }
         $5 == "lbs" && $18 != 144 { exit 1 }
         $5 == "dqs" && $18 != 96 { exit 1 }' "$tmp/b.csv" || fail "the CSV's rows: $(cat "$tmp/b.csv")"
grep -q '"baseline_table_samples": null,' "$tmp/b.json" || fail "rows without tables name table samples"
grep -q "Baseline's tables" "$tmp/out.txt" && fail "a run without baseline rows describes its tables"
# Baseline's tables as the run built them (the defaults are 128 φ and 256 fan samples, bones of 700 points).
"$bench" --sizes 2000 --repeats 1 --threads 1 --methods lbs baseline baseline-exact --table-samples 64 --min-tabulated-points 5 \
    --json "$tmp/t.json" --csv "$tmp/t.csv" >"$tmp/t.txt" 2>&1 || fail "the bench failed: $(cat "$tmp/t.txt")"
# The CSV has them too, last, for the baseline row alone (they had been in the JSON only).
awk -F, 'NR == 1 { if ($24 != "baseline_table_samples" || $26 != "baseline_min_tabulated_points" || NF != 26) exit 1; next }
         NF != 26 { exit 1 }
         $5 == "baseline" && !($24 == 64 && $25 == 128 && $26 == 5) { exit 1 }
         $5 != "baseline" && ($24 != "" || $25 != "" || $26 != "") { exit 1 }' "$tmp/t.csv" || fail "the CSV's table settings: $(cat "$tmp/t.csv")"
grep -qF "Baseline's tables: 64 φ and 128 fan samples a bone, for the bones read by at least 5 points." "$tmp/t.txt" ||
    fail "the table does not say baseline's tables: $(head -4 "$tmp/t.txt")"
[ "$(grep -c '"baseline_table_samples": 64,' "$tmp/t.json")" -eq 1 ] && [ "$(grep -c '"baseline_fan_samples": 128,' "$tmp/t.json")" -eq 1 ] && [ "$(grep -c '"baseline_min_tabulated_points": 5,' "$tmp/t.json")" -eq 1 ] ||
    fail "the JSON's baseline row does not say its tables (or another row does)"
echo "the files describe the run"
