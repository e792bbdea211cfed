// I/O analysis: groups, directions, types and copy sets, checked against paper 003's MM table.
#include <catch2/catch.hpp>

#include <sadsl/comm/io_groups.hpp>
#include <sadsl/sadsl.hpp>

#include "../support/test_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

const design& design_in(const std::vector<design>& ds, const std::string& name) {
  for (const auto& d : ds)
    if (d.name() == name) return d;
  FAIL("no design " << name);
  return ds.front();
}

std::string summary(const design& d, const io_group& g) {
  std::string s = g.tensor.name() + " " + std::string(io_type_name(g.type)) + " " +
                  std::string(io_group_kind_name(g.kind)) + " (";
  for (size_t i = 0; i < g.direction.size(); ++i) s += (i ? "," : "") + std::to_string(g.direction[i]);
  s += ")";
  for (const auto& a : g.accesses)
    s += " " + a.statement.name() + (a.is_write() ? ":w " : ":r ") + access_text(*d.band->source, a);
  return s;
}

// Paper 003 writes the copy sets over S0[i, j, k] with bounds M, N, K, for sizes of at least 2
// (with one iteration along j there is no reuse along j, and the paper does not consider it).
bool same(const isl::union_set& ours, const char* paper) {
  isl::set sizes(ours.ctx(), "[M, N, K] -> { : M >= 2 and N >= 2 and K >= 2 }");
  return ours.intersect_params(sizes).is_equal(isl::union_set(ours.ctx(), paper).intersect_params(sizes));
}

}  // namespace

TEST_CASE("I/O groups of MM [i,j] reproduce paper 003's table (C accumulated in place, as the paper's code)") {
  // The paper's MM omits C's initialization: C is accumulated in place (inout here).
  kernel mm("mm");
  param M = mm.param("M", 8), N = mm.param("N", 8), K = mm.param("K", 8);
  auto A = mm.input<float>("A", {M, K});
  auto B = mm.input<float>("B", {K, N});
  auto C = mm.inout<float>("C", {M, N});
  loop i(M), j(N), k(K);
  C(i, j) += A(i, k) * B(k, j);
  auto ds = designs(mm);
  const design& d = design_in(ds, "[i,j] <[i,j],k>");
  auto g = io_groups(d);
  REQUIRE(g.size() == 4);
  // g1..g4 with A, D and the direction/type paper 002 section 6.1 derives for them.
  CHECK(summary(d, g[0]) == "A exterior read (0,1) S0:r A(i, k)");
  CHECK(summary(d, g[1]) == "B exterior read (1,0) S0:r B(k, j)");
  CHECK(summary(d, g[2]) == "C interior flow (0,0) S0:r C(i, j) S0:w C(i, j)");
  CHECK(summary(d, g[3]) == "C interior output (0,0) S0:w C(i, j)");
  const char* all = "[M, N, K] -> { S0[i, j, k] : 0 <= i < M and 0 <= j < N and 0 <= k < K }";
  CHECK(same(g[0].copy_in, all));
  CHECK(g[0].copy_out.is_empty());
  CHECK(same(g[1].copy_in, all));
  CHECK(same(g[2].copy_in, "[M, N, K] -> { S0[i, j, k] : 0 <= i < M and 0 <= j < N and 0 < k < K }"));
  CHECK(same(g[2].copy_out, "[M, N, K] -> { S0[i, j, k] : 0 <= i < M and 0 <= j < N and 0 <= k < K - 1 }"));
  CHECK(g[3].copy_in.is_empty());
  CHECK(same(g[3].copy_out, "[M, N, K] -> { S0[i, j, K - 1] : 0 <= i < M and 0 <= j < N }"));
}

TEST_CASE("I/O groups follow the dataflow: [i,k] passes C between PEs, [i] serves A to each PE") {
  auto ds = designs(catalog::mm());
  const design& ik = design_in(ds, "[i,k] <[i,j],k>");
  auto g = io_groups(ik);
  std::vector<std::string> s;
  for (const auto& x : g) s.push_back(summary(ik, x));
  // The implicit C = 0 (S0) feeds the first accumulation in the same PE: an interior flow.
  CHECK(s == std::vector<std::string>{"A interior read (0,0) S1:r A(i, k)", "B exterior read (1,0) S1:r B(k, j)",
                                      "C exterior flow (0,1) S1:r C(i, j) S1:w C(i, j)",
                                      "C interior flow (0,0) S1:r C(i, j) S0:w C(i, j)",
                                      "C interior output (0,0) S1:w C(i, j)"});
  const design& i1 = design_in(ds, "[i] <[i,j],k>");
  s.clear();
  for (const auto& x : io_groups(i1)) s.push_back(summary(i1, x));
  CHECK(s == std::vector<std::string>{"A interior read (0) S1:r A(i, k)", "B exterior read (1) S1:r B(k, j)",
                                      "C interior flow (0) S1:r C(i, j) S1:w C(i, j) S0:w C(i, j)",
                                      "C interior output (0) S1:w C(i, j)"});
}

TEST_CASE("a read-only access without reuse forms an interior read group of all its instances") {
  auto ds = designs(catalog::fir());
  const design& d = ds.front();
  auto g = io_groups(d);
  const program& p = *d.band->source;
  bool found = false;
  for (const auto& x : g)
    if (x.tensor.name() == "x") {
      found = true;
      CHECK(x.type == io_type::interior);
      CHECK(x.dependences.empty());
      CHECK(x.copy_in.is_equal(isl::union_set(p.statement("S1").domain)));
    }
  CHECK(found);
}
