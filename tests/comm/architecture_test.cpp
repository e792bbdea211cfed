// The architecture's structure: paper 003's MM array, where C is reloaded and where it stays in
// the PEs, golden dumps of CNN, MTTKRP and TTMc, conservation of tokens and DRAM traffic, the
// deadlock report, and the construction's errors.
#include <catch2/catch.hpp>

#include <isl/set.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include <sadsl/comm/architecture.hpp>
#include <sadsl/comm/dump.hpp>
#include <sadsl/comm/executor.hpp>
#include <sadsl/comm/routing.hpp>
#include <sadsl/catalog/kernels.hpp>
#include <sadsl/sadsl.hpp>

#include "../support/test_support.hpp"
#include "../support/kernels.hpp"
#include "support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

const module_kind* module(const architecture& a, const std::string& name) {
  for (const auto& m : a.modules)
    if (m.name == name) return &m;
  return nullptr;
}

size_t instances(const architecture& a, const std::string& name) {
  const module_kind* m = module(a, name);
  const module_kind* b = module(a, name + "_boundary");
  return (m ? m->instances.size() : 0) + (b ? b->instances.size() : 0);
}

bool has_network(const architecture& a, const std::string& tensor, io_group_kind kind, bool input) {
  for (const auto& n : a.networks)
    if (n.tensor.name() == tensor && n.kind == kind && n.input == input) return true;
  return false;
}

}  // namespace

TEST_CASE("MM [i,j], T1 = 16, T2 = 8, SIMD 2: paper 003's 2 x 2 array") {
  kernel k = mm_at(32);
  design d = find_design(k, "[i,j] <[i,j],k>");
  architecture a = build_architecture(
      d, {point_by_name(d, {{"i_t1", 16}, {"j_t1", 16}, {"k_t1", 16}, {"i_t2", 8}, {"j_t2", 8}, {"k_t2", 2}}), {}});
  CHECK(a.pe_grid == std::vector<int64_t>{2, 2});
  CHECK(a.padding == padding_mode::zero_padded);
  CHECK(a.phases.size() == 1);
  // A and B: one L3 module at DRAM each, an L2 daisy chain (one module per PE row / column)
  // feeding the first PE of each row / column; the PEs forward them (L1 embedded).
  CHECK(instances(a, "A_IO_L3_in") == 1);
  CHECK(instances(a, "A_IO_L2_in") == 2);
  CHECK(instances(a, "B_IO_L3_in") == 1);
  CHECK(instances(a, "B_IO_L2_in") == 2);
  CHECK(module(a, "A_IO_L1_in") == nullptr);
  // C: drained through L1 (one per PE), L2 (one per column) and L3.
  CHECK(instances(a, "C_drain_IO_L1_out") == 4);
  CHECK(instances(a, "C_drain_IO_L2_out") == 2);
  CHECK(instances(a, "C_drain_IO_L3_out") == 1);
  // C accumulates in the PE: a local buffer of i_t2 x j_t2, no reload.
  REQUIRE(a.pe().buffers.size() == 1);
  CHECK(a.pe().buffers[0].extents == std::vector<int64_t>{8, 8});
  CHECK_FALSE(has_network(a, "C", io_group_kind::flow, true));
  // A SIMD vector of 2 lanes per token to the PEs, words of 16 floats (512 bits) from DRAM.
  CHECK(module(a, "A_IO_L2_in")->ports[1].lanes == 2);
  CHECK(module(a, "A_IO_L3_in")->dram->lanes == 16);
  CHECK(a.fifos.size() == 26);
}

TEST_CASE("MM <[i,j],k> keeps C in the PEs; the other two tile orders reload it between k tiles") {
  kernel k = mm_at(16);
  for (const char* name : {"[i,j] <[i,j],k>", "[i,j] <[j,k],i>", "[i,j] <[i,k],j>"}) {
    design d = find_design(k, name);
    architecture a = build_architecture(d, {tiling(d, tiling_shape::non_divisor), {}});
    bool reload = std::string(name) != "[i,j] <[i,j],k>";
    INFO(name);
    CHECK(has_network(a, "C", io_group_kind::flow, true) == reload);
    CHECK(has_network(a, "C", io_group_kind::flow, false) == reload);
    CHECK(has_network(a, "C", io_group_kind::output, false));
    CHECK((a.phases.size() > 1) == reload);  // a reload runs the k tiles as separate invocations
  }
}

TEST_CASE("golden: architectures of CNN, MTTKRP and TTMc") {
  struct example {
    kernel k;
    std::vector<std::pair<const char*, int64_t>> sizes;
    std::string design;
  };
  std::vector<example> examples;
  examples.push_back({catalog::cnn(), {{"O", 8}, {"R", 8}, {"C", 8}, {"I", 8}, {"K", 3}}, "[o,c] <[o,r,c],i>"});
  examples.push_back({catalog::mttkrp(), {{"I", 8}, {"J", 8}, {"K", 8}, {"L", 4}}, "[i,j] <[i,j],k>"});
  examples.push_back({catalog::ttmc(), {{"I", 4}, {"J", 4}, {"K", 4}, {"L", 4}, {"M", 4}}, "[i,j] <[i,j,k],l>"});
  for (auto& e : examples) {
    for (auto [name, v] : e.sizes) e.k.get_param(name).set(v);
    design d = find_design(e.k, e.design);
    design_point p;  // 4-wide tiles, latency and SIMD factors of 2: a 2 x 2 PE array
    for (tile_level level : {tile_level::array_partition, tile_level::latency_hiding, tile_level::simd})
      for (const auto& f : d.factors)
        if (f.id.level == level) p[f.id] = f.parent ? 2 : 4;
    architecture a = build_architecture(d, {p, {}});
    INFO(e.k.name());
    check_golden("comm", e.k.name(), dump_architecture(a));
  }
}

TEST_CASE("conservation: each PE receives one token per read it takes from a FIFO") {
  kernel k = mm_at(12);
  for (const char* name : {"[i,j] <[i,k],j>", "[i,k] <[i,j],k>"}) {
    design d = find_design(k, name);
    design_point p = tiling(d, tiling_shape::wide);
    architecture a = build_architecture(d, {p, {}});
    buffers data(k);
    data.randomize_inputs(1);
    execution_result r = execute(a, data);
    REQUIRE(r.ok());
    // Every MM read of A, B (and of C from another PE or a reload) comes as a token: tokens into
    // the PEs = vectors of A and B reads + C's. The executor checked each FIFO ends empty; here
    // the totals: 2 vector reads per statement instance group, per phase.
    int64_t into_pes = 0;
    for (const auto& f : a.fifos)
      if (f.consumer_kind == 0) into_pes += r.fifo_tokens.at(f.name);
    int64_t vectors = 12 * 12 * 12 / p.at({*d.simd, tile_level::simd});
    INFO(name);
    CHECK(into_pes >= 2 * vectors);  // A and B, at least once per vector in some PE
  }
}

TEST_CASE("off-chip traffic: each DRAM module moves its leaves' chunks once per tile") {
  // MM [i,j] <[i,j],k>, padded 12 -> 12 (tiles 6): A and B are read once per tile
  // (ceil(I/6) * ceil(J/6) * ceil(K/6) tiles of 6 x 6 elements each), C written once.
  kernel k = mm_at(12);
  design d = find_design(k, "[i,j] <[i,j],k>");
  architecture a = build_architecture(
      d, {point_by_name(d, {{"i_t1", 6}, {"j_t1", 6}, {"k_t1", 6}, {"i_t2", 3}, {"j_t2", 3}, {"k_t2", 2}}), {}});
  buffers data(k);
  data.randomize_inputs(1);
  execution_result r = execute(a, data);
  REQUIRE(r.ok());
  CHECK(r.dram_bytes_read.at("A") == 2 * 2 * 2 * 36 * 4);
  CHECK(r.dram_bytes_read.at("B") == 2 * 2 * 2 * 36 * 4);
  CHECK(r.dram_bytes_written.at("C") == 12 * 12 * 4);
  CHECK(r.dram_bytes_read.at("C") == 0);
}

TEST_CASE("a FIFO too shallow to hold a token deadlocks, and the executor names who waits on what") {
  kernel k = mm_at(4);
  design d = find_design(k, "[i] <[i,j],k>");
  architecture a = build_architecture(
      d, {point_by_name(d, {{"i_t1", 4}, {"j_t1", 4}, {"k_t1", 4}, {"i_t2", 2}, {"j_t2", 2}, {"k_t2", 2}}), {}});
  for (auto& f : a.fifos)
    if (f.name == "fifo_PE_0_B_out") f.depth = 0;
  buffers data(k);
  data.randomize_inputs(1);
  execution_result r = execute(a, data);
  CHECK(r.deadlock.starts_with("deadlock in phase 0: PE[0] waits to write fifo_PE_0_B_out (full, depth 0)"));
  CHECK(r.deadlock.find("PE[1] waits to read fifo_PE_0_B_out (empty)") != std::string::npos);
}

TEST_CASE("architecture errors") {
  kernel lu = catalog::lu_uniform();
  lu.get_param("N").set(6);
  design d = designs(lu).front();
  architecture_point p{tiling(d, tiling_shape::non_divisor), {}};
  p.packs[{d.band->source->arrays().front().tensor->id(), io_group_kind::read, 1}] = 2;
  CHECK(message_of([&] { build_architecture(d, p); }) ==
        "packing factor 2 of tensor \"A\" (read group, I/O level 1): design [k] <[j,i],k> is not padded with zeros "
        "(loop \"j\" does not run over [0, P) for a param P) and its chunks at this point are not all whole boxes, so "
        "they are not whole words: it packs one element per word");
  kernel mm = mm_at(8);
  design m = find_design(mm, "[i,j] <[i,j],k>");
  architecture_point q{point_by_name(m, {{"i_t1", 8}, {"j_t1", 8}, {"k_t1", 8}, {"i_t2", 4}, {"j_t2", 4}, {"k_t2", 2}}), {}};
  q.packs[{d.band->source->arrays().front().tensor->id(), io_group_kind::read, 2}] = 3;
  for (const auto& t : mm.tensors())
    if (t->name == "A") q.packs = {{{t->id(), io_group_kind::read, 2}, 3}};
  CHECK(message_of([&] { build_architecture(m, q); }) ==
        "packing factor 3 of tensor \"A\" (read group, I/O level 2) must be a power of two that divides 8 (the buffer's "
        "last dimension) and packs at most 512 bits");
  CHECK(message_of([&] { build_architecture(m, {point_by_name(m, {{"i_t1", 8}}), {}}); }) ==
        "design [i,j] <[i,j],k> needs a value for tiling factor \"j_t1\"");
}

TEST_CASE("chunks that do not start on a word boundary are packed one element per word") {
  // FIR y(i) += x(i + t) * h(t) with one PE per i: PE p's chunk of x starts at 2 * (t0 + t1) + p,
  // an odd element for p = 1, so x cannot move in words of two.
  kernel fir = catalog::fir();
  fir.get_param("N").set(3);
  fir.get_param("T").set(3);
  design d = find_design(fir, "[i] <[i],t>");
  architecture_point p{point_by_name(d, {{"i_t1", 2}, {"i_t2", 1}, {"t_t1", 2}, {"t_t2", 1}}), {}};
  architecture a = build_architecture(d, p);
  for (const auto& n : a.networks)
    if (n.tensor.name() == "x") CHECK(n.packs.at(n.top_level) == 1);
    else if (n.tensor.name() == "h") CHECK(n.packs.at(n.top_level) == 2);
  CHECK(verify_architecture(a) == "");
  for (const auto& t : fir.tensors())
    if (t->name == "x") p.packs = {{{t->id(), io_group_kind::read, 1}, 2}};
  CHECK(message_of([&] { build_architecture(d, p); }) ==
        "packing factor 2 of tensor \"x\" (read group, I/O level 1): the chunks of design [i] <[i],t> do not start at "
        "multiples of 2 elements, so they are not whole words");
}

// Packing in a guarded design (comm/networks.cpp): where every chunk of a network is a whole box
// (a point with no partial tile, of a rectangular domain) and its buffer is registers (64
// elements or fewer, whose banks cost no block RAM), it packs as a padded design does; a partial
// tile's chunk, a triangle's or a block RAM buffer keep one element a word. Each architecture
// computes what the kernel computes.
TEST_CASE("a guarded design packs a network whose chunks are whole boxes of registers") {
  kernel k = tropical_mm(24);
  design d = find_design(k, "[i,j] <[i,j],k>");
  auto packs_of = [&](const std::map<std::string, int64_t>& factors) {
    architecture a = build_architecture(d, {point_by_name(d, factors), {}});
    CHECK(a.padding == padding_mode::guarded);
    CHECK(verify_architecture(a) == "");
    std::map<std::string, int64_t> out;  // per in-network, its DRAM word
    for (const auto& n : a.networks)
      if (n.input) out[n.tensor.name()] = n.packs.at(n.top_level);
    return out;
  };
  // Whole tiles: A's buffer i_t2 x k_t1 = 4 x 8 and B's k_t1 x j_t2 = 8 x 4 elements, words of
  // their last extents.
  std::map<std::string, int64_t> whole = packs_of({{"i_t1", 8}, {"i_t2", 4}, {"j_t1", 8}, {"j_t2", 4}, {"k_t1", 8}});
  CHECK(whole == std::map<std::string, int64_t>{{"A", 8}, {"B", 4}, {"C", 4}});
  // k_t1 = 24: A's and B's buffers have 96 elements (block RAM): one element a word; C's 16 pack.
  std::map<std::string, int64_t> large = packs_of({{"i_t1", 8}, {"i_t2", 4}, {"j_t1", 8}, {"j_t2", 4}, {"k_t1", 24}});
  CHECK(large == std::map<std::string, int64_t>{{"A", 1}, {"B", 1}, {"C", 4}});
  // k_t1 = 16 does not divide 24: the last k tile's chunks of A and B are smaller boxes; C's
  // (i, j) tiles are whole.
  std::map<std::string, int64_t> partial = packs_of({{"i_t1", 8}, {"i_t2", 2}, {"j_t1", 8}, {"j_t2", 2}, {"k_t1", 16}});
  CHECK(partial == std::map<std::string, int64_t>{{"A", 1}, {"B", 1}, {"C", 2}});

  // LU: A's tile is read whole at k's first tile (a box); L's elements of a tile on the diagonal
  // are a triangle.
  kernel lu = catalog::lu_uniform();
  lu.get_param("N").set(32);
  design l = find_design(lu, "[k,i] <[j,i],k>");
  architecture a = build_architecture(l, {point_by_name(l, {{"k_t1", 16}, {"j_t1", 16}, {"i_t1", 16}}), {}});
  CHECK(verify_architecture(a) == "");
  std::map<std::string, std::pair<bool, int64_t>> lu_packs;  // per network name: whole boxes, DRAM word
  for (const auto& n : a.networks) lu_packs[n.name + (n.input ? " in" : " out")] = {n.whole_boxes, n.packs.at(n.top_level)};
  CHECK(lu_packs.at("A_IO in") == std::pair<bool, int64_t>{true, 16});
  CHECK(lu_packs.at("L_drain_IO out") == std::pair<bool, int64_t>{false, 1});
}
