#!/usr/bin/env bash
# baseskin-bench refuses an empty --json, --csv, --capture or --peer-python (an unset shell variable) as a bad
# command line, exit code 1: an empty --json or --csv had been taken as not given (the run wrote no file,
# exit 0), an empty --capture said "I/O error: : no such capture", and an empty --peer-python was taken as
# not given (the run went without its peer, exit 0). usage: empty_paths.sh BENCH_BINARY
bench=$1
for option in --json --csv; do
    out=$("$bench" --sizes 1000 --repeats 1 --methods lbs "$option" "" 2>&1)
    rc=$?
    if [ "$rc" -ne 1 ] || ! grep -qF -- "$option: expected a path, got an empty one" <<<"$out"; then
        echo "FAIL: $option \"\": exit $rc (want 1): $out"
        exit 1
    fi
done
out=$("$bench" --body human --capture "" --sizes 1000 --repeats 1 --methods lbs 2>&1)
rc=$?
if [ "$rc" -ne 1 ] || ! grep -qF -- "--capture: expected a path, got an empty one" <<<"$out"; then
    echo "FAIL: --capture \"\": exit $rc (want 1): $out"
    exit 1
fi
out=$("$bench" --sizes 1000 --repeats 1 --methods lbs --peer-python "" 2>&1)
rc=$?
if [ "$rc" -ne 1 ] || ! grep -qF -- "--peer-python: expected a program (a path, or a name found through PATH), got an empty one" <<<"$out"; then
    echo "FAIL: --peer-python \"\": exit $rc (want 1): $out"
    exit 1
fi
echo "empty paths are refused"
