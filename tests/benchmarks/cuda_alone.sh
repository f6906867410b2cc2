#!/usr/bin/env bash
# baseskin-bench --backend cuda alone: without a device (or without the CUDA backend) it is unsupported
# (exit code 4, the JSON not written) rather than an empty success; where a device ran the rows there is
# nothing to check here (skipped: exit 77). usage: cuda_alone.sh BENCH_BINARY
bench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$bench" --backend cuda --sizes 1000 --repeats 1 --methods lbs --json "$tmp/bench.json" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
    echo "a CUDA device ran the rows: skipped"
    exit 77
fi
if [ "$rc" -ne 4 ] || ! grep -qF -- "--backend cuda: no CUDA device" <<<"$out" || [ -e "$tmp/bench.json" ]; then
    echo "FAIL: exit $rc (want 4, the JSON not written): $out"
    exit 1
fi
echo "--backend cuda alone is unsupported without a device"
