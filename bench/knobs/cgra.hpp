#pragma once
// Benchmark substrate for the tuning-knob search: a Mosaic-like coarse-grained reconfigurable array
// (paper 004 section 8) and its compile flow, with the three failure modes of the paper's spaces.
//
// Architecture: clusters of 4 ALUs, 1 or 2 dual-ported data memories per cluster (256 words each),
// 16 instruction slots per ALU (time-multiplexed, so an ALU holds one instruction per cycle of the
// modulo schedule plus loop control), and one off-chip stream port per 4 clusters.
//
// Compile flow, in stage order, as a tool would report it:
//   1. front end: the loop body's operations (IR size), buffers per data memory, memories needed
//      and an instruction estimate per ALU are known here, so every test reports them;
//   2. memory allocation fails with "data memory" if a buffer or the number of memories does not fit;
//   3. modulo scheduling + placement fails with "instruction memory" if an ALU needs more than 16
//      instructions. Placement adds move instructions for values routed between clusters, so the
//      placed count exceeds the front end's estimate by an amount the estimate cannot predict
//      (modelled as a reproducible per-configuration draw);
//   4. routing fails with "compile time limit" when the place-and-route effort exceeds the limit.
//      Effort grows super-linearly with the IR size and steeply with slot utilisation (a nearly full
//      array is hard to route), with reproducible per-configuration scatter: the jagged frontier of
//      paper 004 Figure 10.
// Only passing tests report run time.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sadsl/tune/knobs/search.hpp"

namespace sadsl::knobs::bench {

struct architecture {
  std::string name;
  int clusters;
  int memories_per_cluster;
  int alus_per_cluster = 4;
  int memory_words = 256;
  int instruction_slots = 16;
  double compile_limit_seconds = 2 * 3600.0;

  int alus() const { return clusters * alus_per_cluster; }
  int memories() const { return clusters * memories_per_cluster; }
  int stream_ports() const { return std::max(1, clusters / 4); }
};

/// The four architectures of paper 004 section 8: 16 or 64 clusters, 1 or 2 memories per cluster.
inline std::vector<architecture> architectures() {
  return {{"small-few", 16, 1}, {"small-many", 16, 2}, {"large-few", 64, 1}, {"large-many", 64, 2}};
}

/// What the compiler front end knows about one configuration of a kernel, and its run time.
struct design {
  double ops;                  // operations in the modulo-scheduled loop body (IR size)
  double memories;             // data memories the buffers need
  double words_per_memory;     // the largest buffer share of one memory
  double instructions;         // front-end estimate of instructions per ALU (busiest ALU)
  double initiation_interval;  // cycles per loop-body iteration
  double compute_cycles;       // steady-state cycles
  double overhead_cycles;      // fills, drains and reductions outside the steady state
};

/// A reproducible draw in [0, 1) for one configuration of one kernel (splitmix64 of the settings).
inline double scatter(const configuration& c, std::uint64_t salt) {
  std::uint64_t h = salt * 0x9E3779B97F4A7C15ULL;
  for (std::uint32_t s : c.settings()) {
    h ^= s + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h += 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
  }
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

/// Instructions an ALU holds after placement: the estimate plus routing moves, which grow with
/// how many clusters exchange values (up to ~30% more, unpredictably per configuration).
inline double placed_instructions(const design& d, const architecture& a, double draw) {
  const double spread = std::min(1.0, d.ops / (a.alus() * 4.0));
  return std::ceil(d.instructions * (1.0 + 0.3 * spread * draw));
}

/// Modelled place-and-route time in seconds: ~ops^1.5, times a congestion factor that explodes as
/// the schedule's slots fill up, times the kernel's routing difficulty (`effort`: long chains of
/// data-dependent operations are harder to meet timing on), times +-30% per-configuration scatter.
inline double compile_seconds(const design& d, const architecture& a, double effort, double draw) {
  const double utilisation = std::min(1.0, d.ops / (a.alus() * d.initiation_interval));
  const double congestion = 1.0 + 12.0 * std::pow(utilisation, 4);
  return 0.05 * effort * std::pow(d.ops, 1.5) * congestion * (0.7 + 0.6 * draw);
}

/// The sensors of a kernel space: the front end's numbers are reported by every test. The objective
/// is throughput, `work` (the kernel's operations) per cycle: a derived feature of the two measured
/// cycle counts, each predicted separately since each follows its own trend.
inline void declare_sensors(problem& p, const architecture& a, double work) {
  const feature ops = p.add_sensor("ops");
  const feature memories = p.add_sensor("memories");
  const feature words = p.add_sensor("words_per_memory");
  const feature instructions = p.add_sensor("instructions");
  const feature compute = p.add_sensor("compute_cycles");
  const feature overhead = p.add_sensor("overhead_cycles");
  p.maximize(work / (compute + overhead));
  // Data memory: the limits are known and the values measured even when allocation fails.
  p.require(memories <= a.memories());
  p.require(words <= a.memory_words);
  // Instruction memory and compile time leave no measurement of their cause: proxies, the front
  // end's instruction estimate and the IR size (paper 004 section 4.1's example). Both are imperfect:
  // placement adds moves, and routing effort also depends on congestion.
  p.proxy("instruction memory", instructions);
  p.proxy("compile time limit", ops);
}

/// Runs the modelled compile flow for a design and reports what a real flow would. `salt` makes the
/// per-configuration scatter differ between kernels; `effort` is the kernel's routing difficulty.
inline outcome run_flow(const design& d, const architecture& a, const configuration& c, std::uint64_t salt,
                        double effort = 1.0) {
  const std::map<std::string, double> front_end{{"ops", d.ops},
                                                {"memories", d.memories},
                                                {"words_per_memory", d.words_per_memory},
                                                {"instructions", d.instructions}};
  if (d.memories > a.memories() || d.words_per_memory > a.memory_words) return outcome::fail("data memory", front_end);
  if (placed_instructions(d, a, scatter(c, salt)) > a.instruction_slots)
    return outcome::fail("instruction memory", front_end, {"data memory"});
  if (compile_seconds(d, a, effort, scatter(c, salt + 1)) > a.compile_limit_seconds)
    return outcome::fail("compile time limit", front_end, {"data memory", "instruction memory"});
  std::map<std::string, double> all = front_end;
  all["compute_cycles"] = d.compute_cycles;
  all["overhead_cycles"] = d.overhead_cycles;
  return outcome::pass(all);
}

/// One benchmark space: a tuning problem, its evaluator and (found by enumeration) its optimum.
struct test_space {
  std::string name;
  problem tuning;
  evaluator evaluate;
};

inline double ceil_div(double a, double b) { return std::ceil(a / b); }

/// A kernel's design formulas for one architecture and the values of its two knobs.
using design_function = design (*)(const architecture&, double, double);

/// The space of a two-knob kernel on one architecture. `work` is the kernel's operation count (the
/// objective is work per cycle); `salt` decorrelates its scatter from other kernels'.
inline test_space kernel_space(const std::string& kernel, const architecture& a, knob first, knob second, double work,
                               design_function formulas, std::uint64_t salt, double effort = 1.0) {
  test_space s{kernel + "/" + a.name, {}, {}};
  const std::string x = first.name(), y = second.name();
  s.tuning.add_knob(std::move(first));
  s.tuning.add_knob(std::move(second));
  declare_sensors(s.tuning, a, work);
  s.evaluate = [=](const configuration& c) {
    return run_flow(formulas(a, double(c[x]), double(c[y])), a, c, salt, effort);
  };
  return s;
}

}  // namespace sadsl::knobs::bench
