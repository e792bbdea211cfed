// count_operations: the kernel's arithmetic, the numerator of every throughput figure. Box domains
// are counted as products of their extents, others point by point by isl (which keeps the set it
// counts: the ASan stage runs this file).
#include <catch2/catch.hpp>

#include <sadsl/sadsl.hpp>
#include <sadsl/poly/operations.hpp>

using namespace sadsl;

TEST_CASE("operations of a triangular kernel are counted point by point") {
  kernel k = catalog::lu();  // PolyBench's LU: j < i, k < j; j2 in [i, N), k2 < i
  k.get_param("N").set(10);
  operation_count ops = count_operations(build_program(k));
  // A(i,j) -= A(i,k) A(k,j): sum over i of i(i - 1) / 2 = 120 instances of 2 operations;
  // A(i,j) /= A(j,j): 45 of 1; A(i,j2) -= A(i,k2) A(k2,j2): sum over i of i (10 - i) = 165 of 2.
  CHECK(ops.instances == 120 + 45 + 165);
  CHECK(ops.operations == 2 * 120 + 45 + 2 * 165);
  CHECK(ops.floating_point);
}

TEST_CASE("operations of a box-shaped kernel are the product of its extents") {
  kernel k = catalog::mm();
  k.get_param("I").set(3);
  k.get_param("J").set(5);
  k.get_param("K").set(7);
  operation_count ops = count_operations(build_program(k));
  CHECK(ops.instances == 3 * 5 + 3 * 5 * 7);  // C's sums start at 0 (no arithmetic), then K updates each
  CHECK(ops.operations == 2 * 3 * 5 * 7);
}
