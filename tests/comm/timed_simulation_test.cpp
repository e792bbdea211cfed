// The timed simulation, the fourth oracle: cycle counts derived by hand for small MM arrays (the
// derivations are in the comments, step by step, from the rules in timed_simulation.hpp), the
// cycles DRAM bandwidth and pipeline depth add, the same outputs and FIFO traffic as the
// executor for designs of MM, CNN and FIR, and a deadlock reported rather than hung.
#include <catch2/catch.hpp>

#include <sadsl/comm/architecture.hpp>
#include <sadsl/comm/executor.hpp>
#include <sadsl/comm/timed_simulation.hpp>
#include <sadsl/catalog/kernels.hpp>
#include <sadsl/sadsl.hpp>

#include <nlohmann/json.hpp>

#include "../support/test_support.hpp"
#include "support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

// MM at 2 x 2 x 2, design [i,j] <[i,j],k>, one PE holding all of C (i_t2 = j_t2 = 2), SIMD 1.
// k_t1 = 2: one tile; k_t1 = 1: two tiles along k (the double buffers of A and B overlap them).
architecture one_pe_mm(const kernel& k, int64_t k_t1) {
  design d = find_design(k, "[i,j] <[i,j],k>");
  return build_architecture(
      d, {point_by_name(d, {{"i_t1", 2}, {"j_t1", 2}, {"k_t1", k_t1}, {"i_t2", 2}, {"j_t2", 2}, {"k_t2", 1}}), {}});
}

timed_result timed(const architecture& a, kernel& k, const timing_options& o = {}) {
  buffers data(k);
  data.randomize_inputs(3);
  timed_result r = simulate_timed(a, data, o);
  REQUIRE(r.deadlock == "");
  return r;
}

// The cycles a process's own units and loop exits took: its finish less the cycles it stalled.
int64_t busy(const timed_result& r, const std::string& instance) {
  return r.finish.at(instance) - r.stalled.at(instance) - r.dram_stalled.at(instance);
}

}  // namespace

// One tile. Every innermost loop is pipelined (II 1), the others sequential; FIFOs hold 2 tokens
// and deliver a cycle after the write; A, B and C move words of 2 floats (8 bytes) in DRAM.
//   A_IO_L3_in (B alike): 2 pipelined reads. The fresh port delivers the first at 8/64 cycles,
//     rounded up: issued at 1; the second at 2; finishes at 3. Tokens readable at 2 and 3.
//   A_IO_L2_in_boundary, step 0: fill(tile 0) reads them at 2 and 3, ends at 4 (stalled 2).
//     Step 1 (starts at 4): feed(tile 0), loops k, i sequential, j pipelined: 8 writes at 4..11,
//     ends at 12.
//   PE: the same 8 iterations; the n-th reads A and B tokens readable at 5 + n: issued at 5..12
//     (stalled 5), ends at 13. It writes A and B on to the dummies (read at 6..13: they end at
//     14) and C at its last k (iterations 4..7, issued at 9..12).
//   C_drain_IO_L1_out_boundary: collect reads C at 10, 11 | 12, 13 (two pipelined loops of 2),
//     ends at 14; send writes 2 words at 14, 15, ends at 16.
//   C_drain_IO_L2_out_boundary: 15, 16, ends at 17. C_drain_IO_L3_out: 16, 17 (its port is idle:
//     no DRAM stall), ends at 18, the run's last process.
TEST_CASE("timed: one PE, one tile of MM, cycle by cycle") {
  kernel k = mm_at(2);
  architecture a = one_pe_mm(k, 2);
  timed_result r = timed(a, k);
  CHECK(r.cycles == 18);
  CHECK(r.phase_cycles == std::vector<int64_t>{18});
  std::map<std::string, int64_t> finish = {
      {"A_IO_L3_in", 3},           {"B_IO_L3_in", 3},
      {"A_IO_L2_in_boundary[0]", 12}, {"B_IO_L2_in_boundary[0]", 12},
      {"PE[0,0]", 13},             {"A_PE_dummy_out[0,0]", 14},
      {"B_PE_dummy_out[0,0]", 14}, {"C_drain_IO_L1_out_boundary[0,0]", 16},
      {"C_drain_IO_L2_out_boundary[0]", 17}, {"C_drain_IO_L3_out", 18}};
  CHECK(r.finish == finish);
  CHECK(r.stalled.at("PE[0,0]") == 5);
  CHECK(r.stalled.at("A_IO_L2_in_boundary[0]") == 2);
  CHECK(r.dram_stalled.at("A_IO_L3_in") == 1);
  CHECK(r.dram_stalled.at("C_drain_IO_L3_out") == 0);
  CHECK(r.kind_finish.at("PE") == 13);
  CHECK(r.kind_finish.at("C_drain_IO_L3_out") == 18);
}

// The same run traced: each instance's first unit, finish and work in the one phase, as derived
// above (A_IO_L3_in issues at 1 and 2; the PE's 8 iterations at 5..12; C_drain_IO_L3_out writes
// at 16 and 17), and the timeline of it.
TEST_CASE("timed: a traced run says when each module instance started and finished") {
  kernel k = mm_at(2);
  architecture a = one_pe_mm(k, 2);
  CHECK(timed(a, k).trace.empty());  // only when asked
  timing_options o;
  o.trace = true;
  timed_result r = timed(a, k, o);
  REQUIRE(r.trace.size() == 1);
  const phase_timing& t = r.trace[0];
  CHECK(t.start == 0);
  CHECK(t.cycles == 18);
  std::map<std::string, instance_timing> by_name;
  for (const auto& m : t.instances) by_name[m.name] = m;
  CHECK(by_name.size() == r.finish.size());
  auto check = [&](const std::string& name, int64_t start, int64_t finish, int64_t units, int64_t fifo_stall,
                   int64_t dram_accesses) {
    INFO(name);
    const instance_timing& m = by_name.at(name);
    CHECK(a.modules.at(static_cast<size_t>(m.kind)).name == name.substr(0, name.find('[')));
    CHECK(m.start == start);
    CHECK(m.finish == finish);
    CHECK(m.finish == r.finish.at(name));
    CHECK(m.units == units);
    CHECK(m.fifo_stall == fifo_stall);
    CHECK(m.dram_accesses == dram_accesses);
  };
  check("A_IO_L3_in", 1, 3, 2, 0, 2);
  check("PE[0,0]", 5, 13, 8, 5, 0);
  check("C_drain_IO_L3_out", 16, 18, 2, 16, 2);
  CHECK(by_name.at("A_IO_L3_in").dram_stall == 1);

  std::string json = timeline_json(a, r);
  CHECK(json == timeline_json(a, r));
  auto doc = nlohmann::json::parse(json);
  const auto& events = doc.at("traceEvents");
  size_t slices = 0;
  for (const auto& e : events) {
    if (e.at("ph") != "X") continue;
    ++slices;
    if (e.at("name") == "PE") {
      CHECK(e.at("ts") == 5);
      CHECK(e.at("dur") == 8);
      CHECK(e.at("args").at("fifo_stall") == 5);
    }
  }
  CHECK(slices == 1 + t.instances.size());  // the phase and every instance (all ran)
  CHECK(events.at(0).at("args").at("name") == "design [i,j] <[i,j],k>");
}

// LU's every tile is a phase of its own: the trace has them in host order, each starting where
// the ones before it ended, modules that do not run in a phase (the reload of V in the first k
// tile, A's network after it) with no unit there, and the DRAM words each phase moved adding up
// to the run's bytes.
TEST_CASE("timed: a trace of several phases adds up to the run") {
  kernel lu = catalog::lu_uniform();
  lu.get_param("N").set(6);
  design d = find_design(lu, "[j,i] <[j,i],k>");
  architecture a = build_architecture(d, {point_by_name(d, {{"k_t1", 2}, {"j_t1", 3}, {"i_t1", 3}}), {}});
  timing_options o;
  o.trace = true;
  timed_result r = timed(a, lu, o);
  REQUIRE(r.trace.size() == a.phases.size());
  REQUIRE(a.phases.size() > 3);
  int64_t start = 0;
  std::map<std::string, int64_t> words;  // per DRAM tensor, read and written
  std::map<std::string, int64_t> last_finish;
  for (size_t p = 0; p < r.trace.size(); ++p) {
    const phase_timing& t = r.trace[p];
    INFO("phase " << p);
    CHECK(t.phase == a.phases[p]);
    CHECK(t.start == start);
    CHECK(t.cycles == r.phase_cycles[p]);
    int64_t latest = 0;
    for (const auto& m : t.instances) {
      const module_kind& kind = a.modules.at(static_cast<size_t>(m.kind));
      if (m.start < 0) {
        CHECK(m.units == 0);
        CHECK(m.dram_accesses == 0);
      } else {
        CHECK(m.start < m.finish);
        CHECK(m.units <= m.finish - m.start);
        last_finish[m.name] = t.start + m.finish;
      }
      latest = std::max(latest, m.finish);
      CHECK((m.dram_accesses == 0 || kind.dram.has_value()));
      if (kind.dram) words[kind.dram->tensor.name()] += m.dram_accesses * kind.dram->lanes;
    }
    CHECK(latest == t.cycles);
    start += t.cycles;
  }
  CHECK(start == r.cycles);
  for (const auto& [name, finish] : last_finish) CHECK(r.finish.at(name) == finish);
  for (const auto& [tensor, n] : words) {
    INFO(tensor);
    int64_t bytes = (r.dram_bytes_read.count(tensor) ? r.dram_bytes_read.at(tensor) : 0) +
                    (r.dram_bytes_written.count(tensor) ? r.dram_bytes_written.at(tensor) : 0);
    CHECK(n * 4 == bytes);
  }
  // V is reloaded from the second k tile on; A is read in the first only.
  auto ran = [&](size_t p, const std::string& kind) {
    for (const auto& m : r.trace[p].instances)
      if (a.modules.at(static_cast<size_t>(m.kind)).name == kind && m.start >= 0) return true;
    return false;
  };
  size_t k_position = 0;
  for (size_t n = 0; n < a.phase_loops.size(); ++n)
    if (d.tile_order.at(a.phase_loops[n]).name() == "k") k_position = n;
  for (size_t p = 0; p < a.phases.size(); ++p) {
    bool first_k = a.phases[p][k_position] == 0;
    CHECK(ran(p, "A_IO_L3_in") == first_k);
    CHECK(ran(p, "V_IO_L3_in") == !first_k);
  }
}

// Pipeline depth d: every pipelined loop exit on the critical path adds d. Fill's exit (feed
// starts at 4 + d); feed's and the PE's exits in step (their loop nests match: PE group g of 2
// iterations is issued from 5 + d + g (2 + d)), three before the last group, which writes C
// readable at 12 + 4d, 13 + 4d; collect's last exit (send writes at 14 + 5d, 15 + 5d: L2 reads
// them at 15 + 5d, 16 + 5d, L3 at 16 + 5d, 17 + 5d); L3's exit: 18 + 6d. (Send's and L2's exits
// delay only their own finish.)
TEST_CASE("timed: pipeline depth adds one depth per pipelined loop exit on the critical path") {
  kernel k = mm_at(2);
  architecture a = one_pe_mm(k, 2);
  for (int64_t depth : {0, 1, 5}) {
    timing_options o;
    o.pipeline_depth = depth;
    CHECK(timed(a, k, o).cycles == 18 + 6 * depth);
  }
}

// Two tiles along k. A_IO_L3_in: tile 0 at 1, 2; tile 1 at 3, 4 (readable at 2, 3, 4, 5).
// A_IO_L2_in_boundary: step 0 fill(0) at 2, 3, ends at 4. Step 1 starts at 4 and runs fill(1)
// (4, 5: ends at 6) and feed(0) (4, 5 | 6, 7: ends at 8) concurrently; step 2 runs feed(1) at
// 8..11. The PE: tile 0 at 5..8, tile 1 at 9..12, ends at 13; C leaves in tile 1 (readable at
// 10..13): collect ends at 14, send at 16, L2 at 17, L3 at 18. Run one after the other, fill(1)
// and feed(0) would delay everything after them by 2.
TEST_CASE("timed: a double buffer fills the next tile while it feeds the current one") {
  kernel k = mm_at(2);
  architecture a = one_pe_mm(k, 1);
  timed_result r = timed(a, k);
  CHECK(r.cycles == 18);
  CHECK(r.finish.at("A_IO_L3_in") == 5);
  CHECK(r.finish.at("A_IO_L2_in_boundary[0]") == 12);
  CHECK(r.finish.at("PE[0,0]") == 13);
  CHECK(r.stalled.at("PE[0,0]") == 5);
}

// The same two tiles with a slow DRAM port: A and B move one float (4 bytes) per access, C two
// (8 bytes), each taking bytes / bandwidth cycles.
//   1 byte per cycle: A_IO_L3_in issues at 4, 8 | 12, 16 (readable at 5, 9, 13, 17); fill(0) at
//     5, 9 (ends at 10); step 1 from 10: fill(1) at 13, 17 (ends at 18), feed(0) at 10..13; step
//     2: feed(1) at 18..21. The PE: tile 0 at 11..14, then it starves: tile 1 at 19..22 (stalled
//     11 + 4), ends at 23. C: collect ends at 24, send writes at 24, 25, L2 at 25, 26; L3 writes
//     at 26 and, its port busy until 26 + 8, at 34: 35 cycles.
//   2 bytes per cycle: A_IO_L3_in at 2, 4 | 6, 8; fill(0) ends at 6, fill(1) at 10 (feed(0) at
//     6..9); feed(1) at 10..13; the PE at 7..10 and 11..14 (stalled 7); L3 writes C at 18 and
//     18 + 4: 23 cycles.
TEST_CASE("timed: a slow DRAM port starves the PE") {
  kernel k = mm_at(2);
  architecture a = one_pe_mm(k, 1);
  std::vector<std::pair<double, int64_t>> expected = {{64, 18}, {2, 23}, {1, 35}};
  std::vector<int64_t> pe_stall = {5, 7, 15};
  for (size_t i = 0; i < expected.size(); ++i) {
    timing_options o;
    o.dram_bytes_per_cycle = expected[i].first;
    timed_result r = timed(a, k, o);
    INFO("bandwidth " << expected[i].first);
    CHECK(r.cycles == expected[i].second);
    CHECK(r.stalled.at("PE[0,0]") == pe_stall[i]);
  }
}

// A process's own cycles are its units and exits: for the PE, tiles x the trips of the loops
// around its pipelined loop x (pipelined trips x II + depth), whatever it waited for.
TEST_CASE("timed: PE compute per tile = outer trips x (pipelined trips x II + depth)") {
  kernel k = mm_at(2);
  for (auto [k_t1, tiles, outer] : {std::tuple<int64_t, int64_t, int64_t>{2, 1, 4}, {1, 2, 2}}) {
    architecture a = one_pe_mm(k, k_t1);
    for (int64_t ii : {1, 3})
      for (int64_t depth : {0, 2}) {
        timing_options o;
        o.ii = ii;
        o.pipeline_depth = depth;
        INFO("k_t1 " << k_t1 << " II " << ii << " depth " << depth);
        CHECK(busy(timed(a, k, o), "PE[0,0]") == tiles * outer * (2 * ii + depth));
      }
  }
}

// Same outputs as the interpreter and the same FIFO and DRAM traffic as the executor.
TEST_CASE("timed: outputs and traffic equal the executor's for designs of MM, CNN and FIR") {
  struct sweep {
    kernel k;
    std::vector<std::pair<const char*, int64_t>> sizes;
    tiling_shape shape;
    size_t designs;  // the first ones
  };
  std::vector<sweep> sweeps = {
      {catalog::mm(), {{"I", 5}, {"J", 4}, {"K", 6}}, tiling_shape::non_divisor, 6},
      {catalog::mm(), {{"I", 4}, {"J", 4}, {"K", 8}}, tiling_shape::wide, 3},
      {catalog::cnn(), {{"O", 4}, {"R", 3}, {"C", 3}, {"I", 2}, {"K", 3}}, tiling_shape::wide, 3},
      {catalog::fir(), {{"N", 9}, {"T", 4}}, tiling_shape::non_divisor, 100},
  };
  int runs = 0;
  for (auto& s : sweeps) {
    for (auto [name, v] : s.sizes) s.k.get_param(name).set(v);
    buffers want(s.k);
    want.randomize_inputs(5);
    run(build_program(s.k), want);
    std::vector<design> ds = designs(s.k);
    for (size_t i = 0; i < ds.size() && i < s.designs; ++i) {
      INFO(s.k.name() << " " << ds[i].name());
      architecture a = build_architecture(ds[i], {tiling(ds[i], s.shape), {}});
      buffers plain(s.k), timed_data(s.k);
      plain.randomize_inputs(5);
      timed_data.randomize_inputs(5);
      execution_result x = execute(a, plain);
      timed_result t = simulate_timed(a, timed_data);
      REQUIRE(t.deadlock == "");
      CHECK(output_difference(s.k, timed_data, want, a.reduction_reordered ? 1e-5 : 0) == "");
      CHECK(output_difference(s.k, timed_data, plain, 0) == "");
      CHECK(t.fifo_tokens == x.fifo_tokens);
      CHECK(t.dram_bytes_read == x.dram_bytes_read);
      CHECK(t.dram_bytes_written == x.dram_bytes_written);
      CHECK(t.phases == x.phases);
      CHECK(t.phase_cycles.size() == static_cast<size_t>(t.phases));
      int64_t last = 0;
      for (const auto& [name, c] : t.finish) last = std::max(last, c);
      CHECK(t.cycles == last);
      ++runs;
    }
  }
  CHECK(runs >= 12);
}

TEST_CASE("timed: a FIFO too shallow to hold a token is reported as a deadlock") {
  kernel k = mm_at(4);
  design d = find_design(k, "[i] <[i,j],k>");
  architecture a = build_architecture(
      d, {point_by_name(d, {{"i_t1", 4}, {"j_t1", 4}, {"k_t1", 4}, {"i_t2", 2}, {"j_t2", 2}, {"k_t2", 2}}), {}});
  for (auto& f : a.fifos)
    if (f.name == "fifo_PE_0_B_out") f.depth = 0;
  buffers data(k);
  data.randomize_inputs(1);
  timed_result r = simulate_timed(a, data);
  CHECK(r.deadlock.starts_with("deadlock in phase 0: PE[0] waits to write fifo_PE_0_B_out (full, depth 0)"));
  CHECK(r.deadlock.find("PE[1] waits to read fifo_PE_0_B_out (empty)") != std::string::npos);
}

// CNN's [r,i] <[o,r,c],i> at 6 x 6 x 6 x 6 forwards partial sums along i; a partial sum stays in
// a PE for the whole reduction below the band, so the input chains run tiles ahead of the last
// PEs and FIFOs two tokens deep make them wait (docs/comm.md, "FIFO depths"). The peaks a run with deep FIFOs
// records are depths at which nothing waits: the same cycles (3,625 at depth 2, 2,939 deep, 26 of
// the 96 FIFOs above 2).
TEST_CASE("timed: FIFOs as deep as a deep run's peaks make no writer wait") {
  kernel k = catalog::cnn();
  for (const auto& p : k.params())
    if (p.value() > 6) p.set(6);
  design d = find_design(k, "[r,i] <[o,r,c],i>");
  architecture a = build_architecture(d, {point_by_name(d, {{"o_t1", 5}, {"o_t2", 5}, {"r_t1", 3}, {"r_t2", 1}, {"c_t1", 6},
                                                            {"c_t2", 6}, {"i_t1", 6}, {"i_t2", 1}}),
                                          {}});
  timing_options o;
  o.fifo_peaks = true;
  for (auto& f : a.fifos) f.depth = 2;  // not as the builder sizes them (fifo_depths_test.cpp)
  timed_result shallow = timed(a, k, o);
  for (auto& f : a.fifos) f.depth = 65536;
  timed_result deep = timed(a, k, o);
  REQUIRE(deep.fifo_peak.size() == a.fifos.size());
  int64_t beyond_two = 0;
  for (auto& f : a.fifos) {
    INFO(f.name);
    CHECK(shallow.fifo_peak.at(f.name) <= 2);
    beyond_two += deep.fifo_peak.at(f.name) > 2;
    f.depth = std::max<int64_t>(1, deep.fifo_peak.at(f.name));  // a dummy sink's carries nothing
  }
  CHECK(beyond_two > 0);
  CHECK(shallow.cycles > deep.cycles);
  timed_result sized = timed(a, k, o);
  CHECK(sized.cycles == deep.cycles);
  CHECK(sized.fifo_peak == deep.fifo_peak);
  CHECK(sized.stalled == deep.stalled);
  // One token less somewhere that held its peak, and its writer waits.
  for (auto& f : a.fifos)
    if (f.depth > 2) {
      --f.depth;
      CHECK(timed(a, k, o).fifo_peak.at(f.name) == f.depth);
      break;
    }
}

TEST_CASE("timed: options out of range are errors") {
  kernel k = mm_at(2);
  architecture a = one_pe_mm(k, 2);
  buffers data(k);
  timing_options o;
  o.ii = 0;
  CHECK(message_of([&] { simulate_timed(a, data, o); }) == "simulate_timed: the initiation interval must be at least 1 (is 0)");
  o = {};
  o.dram_bytes_per_cycle = 0;
  CHECK(message_of([&] { simulate_timed(a, data, o); }) ==
        "simulate_timed: the DRAM bandwidth must be positive (is 0 bytes per cycle)");
}

// Not run by default (a minute on an idle machine; `test_comm "[.timed-sweep]"`): every design of the executor's sweep kernels at its tilings
// runs timed to the executor's outputs, with no unit waiting on its own cycle.
TEST_CASE("timed sweep: every design of the benchmark kernels, as in the executor sweep", "[.timed-sweep]") {
  struct sweep {
    kernel k;
    std::vector<std::pair<const char*, int64_t>> sizes;
    tiling_shape shape;
  };
  std::vector<sweep> sweeps = {
      {catalog::mm(), {{"I", 9}, {"J", 11}, {"K", 12}}, tiling_shape::non_divisor},
      {catalog::mm(), {{"I", 8}, {"J", 8}, {"K", 8}}, tiling_shape::wide},
      {catalog::cnn(), {{"O", 4}, {"R", 5}, {"C", 4}, {"I", 4}, {"K", 3}}, tiling_shape::wide},
      {catalog::mttkrp(), {{"I", 5}, {"J", 4}, {"K", 6}, {"L", 3}}, tiling_shape::non_divisor},
      {catalog::ttmc(), {{"I", 3}, {"J", 4}, {"K", 3}, {"L", 4}, {"M", 3}}, tiling_shape::non_divisor},
      {catalog::fir(), {{"N", 13}, {"T", 5}}, tiling_shape::non_divisor},
      {catalog::gemv(), {{"I", 10}, {"J", 9}}, tiling_shape::tiny},
      {catalog::lu_uniform(), {{"N", 6}}, tiling_shape::non_divisor},
  };
  for (auto& s : sweeps) {
    for (auto [name, v] : s.sizes) s.k.get_param(name).set(v);
    for (const auto& d : designs(s.k)) {
      INFO(s.k.name() << " " << d.name());
      architecture a = build_architecture(d, {tiling(d, s.shape), {}});
      buffers plain(s.k), timed_data(s.k);
      plain.randomize_inputs(5);
      timed_data.randomize_inputs(5);
      execution_result x = execute(a, plain);
      timed_result t = simulate_timed(a, timed_data);
      REQUIRE(t.deadlock == "");
      CHECK(output_difference(s.k, timed_data, plain, 0) == "");
      CHECK(t.fifo_tokens == x.fifo_tokens);
      CHECK(t.cycles > 0);
    }
  }
}
