// The weighted mean of rotations given as unit quaternions, blind to their signs (q and −q are one
// rotation): the principal eigenvector of A = Σ w_j q_j q_jᵀ (Markley, Cheng, Crassidis and Oshman 2007,
// "Averaging quaternions"), found by cyclic Jacobi rotations of the 4×4 symmetric matrix. The gap between
// A's two largest eigenvalues says how well defined that mean is: it is 0 where no rotation is nearer to
// them all than another (two rotations half a turn apart with equal weights, three a third of a turn
// apart about one axis), and there the mean jumps; a caller that must stay continuous fades away from it
// by the gap (engine/baseline/deform.hpp, the rigid field).
#pragma once

#include "engine/vec.hpp"

namespace bs {

// Σ w_j q_j q_jᵀ, accumulated.
template <class T>
struct QuatOuterSum {
    T a[4][4] = {};

    BS_HD void add(T w, Quat<T> q) {
        const T c[4] = {q.w, q.x, q.y, q.z};
        for (int r = 0; r < 4; ++r)
            for (int k = 0; k < 4; ++k) a[r][k] += w * c[r] * c[k];
    }
};

template <class T>
struct QuatMean {
    Quat<T> mean;  // unit; its sign is arbitrary
    T gap;         // the largest eigenvalue minus the second, ≥ 0 (in the weights' units)
};

// Sweeps of the cyclic Jacobi method: a 4×4 symmetric matrix converges to the last bits in 5 or 6.
constexpr int kJacobiSweeps = 12;

template <class T> BS_HD inline QuatMean<T> principal_quaternion(const QuatOuterSum<T>& sum) {
    T a[4][4], v[4][4];
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) a[r][k] = sum.a[r][k], v[r][k] = r == k ? T(1) : T(0);
    for (int sweep = 0; sweep < kJacobiSweeps; ++sweep) {
        T off = T(0), diagonal = T(0);
        for (int r = 0; r < 4; ++r) {
            diagonal += a[r][r] * a[r][r];
            for (int k = r + 1; k < 4; ++k) off += a[r][k] * a[r][k];
        }
        if (!(off > diagonal * T(1e-32))) break;  // converged (and stops on NaN)
        for (int p = 0; p < 3; ++p)
            for (int q = p + 1; q < 4; ++q) {
                if (a[p][q] == T(0)) continue;
                // The rotation in the (p, q) plane that zeroes a[p][q]: t = tan φ, the root of
                // t² + 2θ t − 1 = 0 of smaller magnitude.
                const T theta = (a[q][q] - a[p][p]) / (T(2) * a[p][q]);
                const T t = (theta >= T(0) ? T(1) : T(-1)) / (std::fabs(theta) + std::sqrt(theta * theta + T(1)));
                const T c = T(1) / std::sqrt(t * t + T(1)), s = t * c;
                for (int k = 0; k < 4; ++k) {
                    const T kp = a[k][p], kq = a[k][q];
                    a[k][p] = c * kp - s * kq;
                    a[k][q] = s * kp + c * kq;
                }
                for (int k = 0; k < 4; ++k) {
                    const T pk = a[p][k], qk = a[q][k];
                    a[p][k] = c * pk - s * qk;
                    a[q][k] = s * pk + c * qk;
                }
                for (int k = 0; k < 4; ++k) {
                    const T kp = v[k][p], kq = v[k][q];
                    v[k][p] = c * kp - s * kq;
                    v[k][q] = s * kp + c * kq;
                }
            }
    }
    int first = 0;
    for (int k = 1; k < 4; ++k)
        if (a[k][k] > a[first][first]) first = k;
    T second = -INFINITY;
    for (int k = 0; k < 4; ++k)
        if (k != first && a[k][k] > second) second = a[k][k];
    const Quat<T> mean{v[0][first], v[1][first], v[2][first], v[3][first]};
    return {normalized(mean), a[first][first] - second};
}

}  // namespace bs
