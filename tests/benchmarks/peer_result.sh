#!/usr/bin/env bash
# A peer (--peer-python: the program run on benchmarks/peer_libigl.py) whose times give an infinite figure
# is a peer that did not run: no libigl rows, a note saying why, and no "inf" in the CSV or the JSON. A time
# of 1e-320 s is finite and positive, as the peer's result must be, but 1,000 points over it overflow: the
# CSV had "inf" in the libigl rows' points per second. usage: peer_result.sh BENCH_BINARY
bench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# The fake peer writes its result as the script would (on stdout, which the bench sends to result.json).
cat >"$tmp/fake-python" <<'PEER'
#!/bin/sh
echo '{"lbs_matrix_seconds": 1e-320, "lbs_seconds": 1e-320, "dqs_seconds": 1e-320, "lbs_max_difference": 0, "dqs_max_difference": 0}'
PEER
chmod +x "$tmp/fake-python"
"$bench" --sizes 1000 --repeats 1 --threads 1 --methods lbs --peer-python "$tmp/fake-python" --json "$tmp/b.json" --csv "$tmp/b.csv" \
    >"$tmp/out.txt" 2>"$tmp/err.txt" || fail "the bench failed: $(cat "$tmp/out.txt" "$tmp/err.txt")"
grep -qi "inf" "$tmp/b.csv" && fail "an infinite figure in the CSV: $(cat "$tmp/b.csv")"
grep -q "libigl" "$tmp/b.csv" "$tmp/b.json" && fail "libigl rows from an unusable result: $(cat "$tmp/b.csv")"
grep -qF "baseskin-bench: the libigl peer's result is not usable (its times give libigl-lbs an infinite encode_points_per_s at 1000 points: lbs_matrix_seconds 1e-320, lbs_seconds 1e-320, dqs_seconds 1e-320): skipped" \
    "$tmp/err.txt" || fail "no message on stderr: $(cat "$tmp/err.txt")"
grep -qF "libigl at 1000 points and beyond: skipped (its times give libigl-lbs an infinite" "$tmp/out.txt" ||
    fail "no note in the tables: $(cat "$tmp/out.txt")"
# A usable result still gives its rows (the check refuses the overflow alone).
sed -i 's/1e-320/0.001/g' "$tmp/fake-python"
"$bench" --sizes 1000 --repeats 1 --threads 1 --methods lbs --peer-python "$tmp/fake-python" --csv "$tmp/c.csv" >"$tmp/out.txt" 2>&1 ||
    fail "the bench failed: $(cat "$tmp/out.txt")"
[ "$(grep -c '^chain,1,1,1000,libigl-' "$tmp/c.csv")" -eq 2 ] || fail "no libigl rows from a usable result: $(cat "$tmp/c.csv")"
echo "a peer whose times overflow is skipped, its figures not written"
