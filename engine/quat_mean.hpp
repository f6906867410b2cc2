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

// The eigen-decomposition of the symmetric N×N matrix a by cyclic Jacobi rotations: on return a's
// diagonal holds the eigenvalues and v's columns the eigenvectors (v starts as the identity).
template <int N, class T> BS_HD inline void jacobi_eigen(T (&a)[N][N], T (&v)[N][N]) {
    for (int r = 0; r < N; ++r)
        for (int k = 0; k < N; ++k) v[r][k] = r == k ? T(1) : T(0);
    for (int sweep = 0; sweep < kJacobiSweeps; ++sweep) {
        T off = T(0), diagonal = T(0);
        for (int r = 0; r < N; ++r) {
            diagonal += a[r][r] * a[r][r];
            for (int k = r + 1; k < N; ++k) off += a[r][k] * a[r][k];
        }
        if (!(off > diagonal * T(1e-32))) break;  // converged (and stops on NaN)
        for (int p = 0; p < N - 1; ++p)
            for (int q = p + 1; q < N; ++q) {
                if (a[p][q] == T(0)) continue;
                // The rotation in the (p, q) plane that zeroes a[p][q]: t = tan φ, the root of
                // t² + 2θ t − 1 = 0 of smaller magnitude.
                const T theta = (a[q][q] - a[p][p]) / (T(2) * a[p][q]);
                const T t = (theta >= T(0) ? T(1) : T(-1)) / (std::fabs(theta) + std::sqrt(theta * theta + T(1)));
                const T c = T(1) / std::sqrt(t * t + T(1)), s = t * c;
                for (int k = 0; k < N; ++k) {
                    const T kp = a[k][p], kq = a[k][q];
                    a[k][p] = c * kp - s * kq;
                    a[k][q] = s * kp + c * kq;
                }
                for (int k = 0; k < N; ++k) {
                    const T pk = a[p][k], qk = a[q][k];
                    a[p][k] = c * pk - s * qk;
                    a[q][k] = s * pk + c * qk;
                }
                for (int k = 0; k < N; ++k) {
                    const T kp = v[k][p], kq = v[k][q];
                    v[k][p] = c * kp - s * kq;
                    v[k][q] = s * kp + c * kq;
                }
            }
    }
}

// Of a diagonalised N×N matrix: the place of its largest eigenvalue and that eigenvalue minus the second
// (minus 0 for N = 1).
template <int N, class T>
struct Principal {
    int first;
    T gap;
};
template <int N, class T> BS_HD inline Principal<N, T> principal_of(const T (&a)[N][N]) {
    int first = 0;
    for (int k = 1; k < N; ++k)
        if (a[k][k] > a[first][first]) first = k;
    T second = N == 1 ? T(0) : -INFINITY;
    for (int k = 0; k < N; ++k)
        if (k != first && a[k][k] > second) second = a[k][k];
    return {first, a[first][first] - second};
}

template <class T> BS_HD inline QuatMean<T> principal_quaternion(const QuatOuterSum<T>& sum) {
    T a[4][4], v[4][4];
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) a[r][k] = sum.a[r][k];
    jacobi_eigen(a, v);
    const Principal<4, T> p = principal_of(a);
    const Quat<T> mean{v[0][p.first], v[1][p.first], v[2][p.first], v[3][p.first]};
    return {normalized(mean), p.gap};
}

// The same mean and gap for N ≤ 3 rotations q_i of weights w_i > 0, solved in their span: with
// Q = [q_1 … q_N] and W = diag(w), A = Q W Qᵀ has the nonzero eigenvalues of the N×N matrix
// M = W^½ QᵀQ W^½ (M_ij = √(w_i w_j) q_i·q_j), and to M's eigenvector u belongs A's Q W^½ u; A's other
// 4 − N eigenvalues are 0, below M's (M is positive semi-definite: its second is clamped at 0 against
// rounding). An N×N solve instead of a 4×4 one: one Jacobi rotation for two rotations (the rigid field's
// eased blend, engine/baseline/deform.hpp, where 60% of its points have two or three bones).
template <int N, class T> BS_HD inline QuatMean<T> principal_quaternion_in_span(const T (&w)[N], const Quat<T> (&q)[N]) {
    static_assert(N >= 1 && N <= 3, "four or more rotations span the whole space: principal_quaternion");
    T root[N], m[N][N], u[N][N];
    for (int i = 0; i < N; ++i) root[i] = std::sqrt(w[i]);
    for (int i = 0; i < N; ++i)
        for (int k = 0; k < N; ++k) m[i][k] = root[i] * root[k] * dot(q[i], q[k]);
    jacobi_eigen(m, u);
    Principal<N, T> p = principal_of(m);
    if (N > 1 && p.gap > m[p.first][p.first]) p.gap = m[p.first][p.first];  // the second below 0 by rounding
    Quat<T> mean{T(0), T(0), T(0), T(0)};
    for (int i = 0; i < N; ++i) mean = mean + (root[i] * u[i][p.first]) * q[i];
    return {normalized(mean), p.gap};
}

}  // namespace bs
