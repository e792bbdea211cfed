// FIFO depths (comm/fifo_depths.hpp): the FIFOs from the input networks into PEs behind along a
// partial-sum chain hold 2 + hops x min(tokens per tile, hop), every other FIFO 2; so sized, the
// arrays run as fast as with FIFOs no writer ever waits on.
#include <catch2/catch.hpp>

#include <sadsl/comm/fifo_depths.hpp>
#include <sadsl/comm/timed_simulation.hpp>
#include <sadsl/sadsl.hpp>

#include "support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

int64_t cycles(const architecture& a, kernel& k) {
  buffers data(k);
  data.randomize_inputs(5);
  timed_result r = simulate_timed(a, data);
  REQUIRE(r.deadlock == "");
  return r.cycles;
}

// CNN's [r,i] <[o,r,c],i> at O = 8, R = C = 12, I = 16: four PEs along i pass partial sums of
// cout, each a partial-sum lifetime (the reduction over p and q below the band) behind the one
// before it (bench/fifo_depth.cpp's first row).
struct cnn_row {
  kernel k = catalog::cnn();
  architecture a;
  cnn_row() {
    for (auto [name, size] : {std::pair{"O", 8}, {"R", 12}, {"C", 12}, {"I", 16}}) k.get_param(name).set(size);
    design d = find_design(k, "[r,i] <[o,r,c],i>");
    a = build_architecture(d, {point_by_name(d, {{"o_t1", 4}, {"o_t2", 4}, {"r_t1", 6}, {"r_t2", 2}, {"c_t1", 6}, {"c_t2", 6},
                                                 {"i_t1", 8}, {"i_t2", 2}}),
                               {}});
  }
  int kind(const std::string& name) const {
    for (size_t k = 0; k < a.modules.size(); ++k)
      if (a.modules[k].name == name) return static_cast<int>(k);
    FAIL("no module kind " << name);
    return -1;
  }
};

}  // namespace

TEST_CASE("FIFO depths: the input FIFOs of PEs behind along a partial-sum chain hold a hop's tokens per hop") {
  cnn_row row;
  const architecture& a = row.a;
  std::vector<partial_sum_chain> chains = partial_sum_chains(a);
  REQUIRE(chains.size() == 1);
  CHECK(chains[0].dim == 1);  // i
  CHECK(chains[0].increasing);
  // A PE's tile: 432 iterations of cin's L1 feed (one per PE) and of w's L2 feed (one per chain
  // head along r, a column of PEs at each place along i). A partial sum of cout stays 384 cycles
  // in a PE (o_t2 x r_t2 x c_t2 = 48 latency elements x the 9 of p and q, less the last 48),
  // and the FIFO from one PE to the next adds one: 385 tokens at most per hop.
  CHECK(tokens_per_tile(a, row.kind("cin_IO_L1_in")) == 432);
  CHECK(tokens_per_tile(a, row.kind("w_IO_L2_in")) == 432);
  CHECK(partial_sum_hop(a, chains[0]) == 385);
  std::map<int64_t, int64_t> deepest;  // by hops
  int64_t deepened = 0;
  for (const auto& f : a.fifos) {
    INFO(f.name);
    const module_kind& producer = a.modules.at(static_cast<size_t>(f.producer_kind));
    if (f.consumer_kind != 0 || producer.role != module_role::io_in) {
      CHECK(f.depth == 2);
      continue;
    }
    int64_t hops = partial_sum_place(a, chains, a.pe().instances.at(static_cast<size_t>(f.consumer_instance)));
    CHECK(hops == a.pe().instances.at(static_cast<size_t>(f.consumer_instance))[1]);
    CHECK(f.depth == 2 + hops * std::min<int64_t>(tokens_per_tile(a, f.producer_kind), 385));
    deepest[hops] = std::max(deepest[hops], f.depth);
    deepened += f.depth > 2;
  }
  CHECK(deepest == std::map<int64_t, int64_t>{{0, 2}, {1, 387}, {2, 772}, {3, 1157}});
  CHECK(deepened == 12);  // cin into the 3 x 3 PEs at hops 1..3, w into the 3 chain heads there
}

TEST_CASE("FIFO depths: so sized, a partial-sum array runs as fast as with FIFOs no writer waits on") {
  cnn_row row;
  architecture two = row.a, deep = row.a;
  for (auto& f : two.fifos) f.depth = 2;
  for (auto& f : deep.fifos) f.depth = 1 << 20;
  int64_t sized = cycles(row.a, row.k);
  CHECK(sized == 9592);
  CHECK(cycles(deep, row.k) == sized);
  CHECK(cycles(two, row.k) == 14128);  // the input chains stall the leading PEs at every tile
}

TEST_CASE("FIFO depths: designs whose PEs pass no partial sums keep FIFOs two deep") {
  kernel k = mm_at(16);
  for (const char* name : {"[i,j] <[i,j],k>", "[i] <[j,k],i>"}) {
    design d = find_design(k, name);
    architecture a = build_architecture(
        d, {point_by_name(d, {{"i_t1", 8}, {"j_t1", 8}, {"k_t1", 8}, {"i_t2", 4}, {"j_t2", 4}, {"k_t2", 2}}), {}});
    INFO(name);
    CHECK(partial_sum_chains(a).empty());
    for (const auto& f : a.fifos) CHECK(f.depth == 2);
  }
  // MM with k in space passes C's partial sums along k: A and B into the PEs behind are deeper.
  design d = find_design(k, "[i,k] <[i,j],k>");
  architecture a = build_architecture(
      d, {point_by_name(d, {{"i_t1", 8}, {"j_t1", 8}, {"k_t1", 8}, {"i_t2", 4}, {"j_t2", 4}, {"k_t2", 2}}), {}});
  REQUIRE(partial_sum_chains(a).size() == 1);
  CHECK(partial_sum_chains(a)[0].dim == 1);
  int64_t deeper = 0;
  for (const auto& f : a.fifos) deeper += f.depth > 2;
  CHECK(deeper > 0);
}
