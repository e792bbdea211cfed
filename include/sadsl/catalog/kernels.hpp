#pragma once
// The benchmark kernels of AutoSA and Odyssey, described in the DSL. Each returns a fresh kernel
// with default problem sizes; change them with kernel::get_param(name).set(value).
#include "sadsl/dsl/kernel.hpp"

namespace sadsl::catalog {

/// C(i,j) += A(i,k) * B(k,j), float, I = J = K = 1024. C starts from zero.
kernel mm();
/// AutoSA's cnn: cout(r,c,o) += cin(r+p, c+q, i) * w(o,p,q,i), loops o r c i p q, float,
/// O = R = C = I = 16, kernel size K = 3 (p, q in [0, K)).
kernel cnn();
/// D(i,j) += A(i,k,l) * B(k,j) * C(j,l), float, all sizes 64.
kernel mttkrp();
/// D(i,j,k) += A(i,l,m) * B(l,j) * C(k,m), float, all sizes 32.
kernel ttmc();
/// 1-D FIR filter y(i) += x(i+t) * h(t), float, N = 1024 outputs, T = 16 taps.
kernel fir();
/// Matrix-vector product y(i) += A(i,j) * x(j), float, I = J = 1024.
kernel gemv();
/// PolyBench's LU (in place, triangular loops, three statements), double, N = 64.
kernel lu();
/// The uniformized LU that AutoSA maps to a triangular systolic array (paper 002, section 8.2):
/// loops k, j in [k, N), i in [k, N); propagation tensors prev_V, V, U_tmp, L_tmp are local.
/// Outputs L and U, float, N = 32.
kernel lu_uniform();
/// BLAS TRMM (left side, A upper triangular): C(i,j) += A(i,k) * B(k,j) with k in [i, M) as a
/// loop bound, float, M = N = 1024. C starts from zero at k = i, the first k of each (i, j).
kernel trmm();
/// Causal 1-D convolution y(i) += x(i-k) * h(k) under the guard k <= i (the first K - 1 outputs
/// see fewer taps), float, N = 1024 outputs, K = 16 taps.
kernel causal_conv();
/// Transposed triangular matrix-vector product y(j) += L(i,j) * x(i) with i in [j, N) (y = L^T x,
/// L lower triangular), float, N = 1024.
kernel trmv_t();

}  // namespace sadsl::catalog
