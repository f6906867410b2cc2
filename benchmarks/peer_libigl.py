"""libigl's LBS and DQS on the points, weights and pose baseskin-bench gives it: a peer in the same run.

Usage: peer_libigl.py FOLDER REPEATS
FOLDER holds little-endian float64 arrays written by baseskin-bench (shape in meta.json): rest (n×3),
weights (n×m), lbs_T ((4m)×3: each bone's transposed 3×4 affine, as igl.lbs_matrix's product expects),
dqs_q (m×4, x y z w), dqs_t (m×3), and our own outputs ours_lbs, ours_dqs (n×3) to compare with.
Prints one JSON object: median seconds of igl.lbs_matrix (once per point set: its "encode") and of the
per-frame product M·T and igl.dqs, and the largest distance from our outputs.
"""
import json
import os
import statistics
import sys
import time

import igl
import numpy as np


def load(folder, name, shape):
    return np.fromfile(os.path.join(folder, name), dtype="<f8").reshape(shape)


def median_seconds(repeats, frame):
    frame()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        frame()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(folder, repeats):
    with open(os.path.join(folder, "meta.json")) as f:
        meta = json.load(f)
    n, m = meta["points"], meta["bones"]
    V = load(folder, "rest", (n, 3))
    W = load(folder, "weights", (n, m))
    T = load(folder, "lbs_T", (4 * m, 3))
    Q = load(folder, "dqs_q", (m, 4))
    Tr = load(folder, "dqs_t", (m, 3))
    start = time.perf_counter()
    M = igl.lbs_matrix(V, W)
    matrix_seconds = time.perf_counter() - start
    result = {}
    lbs_seconds = median_seconds(repeats, lambda: result.__setitem__("lbs", M @ T))
    dqs_seconds = median_seconds(repeats, lambda: result.__setitem__("dqs", igl.dqs(V, W, Q, Tr)))
    ours_lbs = load(folder, "ours_lbs", (n, 3))
    ours_dqs = load(folder, "ours_dqs", (n, 3))
    print(json.dumps({
        "libigl_version": getattr(igl, "__version__", "2.5.1"),
        "lbs_matrix_seconds": matrix_seconds,
        "lbs_seconds": lbs_seconds,
        "dqs_seconds": dqs_seconds,
        "lbs_max_difference": float(np.max(np.linalg.norm(result["lbs"] - ours_lbs, axis=1))),
        "dqs_max_difference": float(np.max(np.linalg.norm(result["dqs"] - ours_dqs, axis=1))),
    }))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]))
