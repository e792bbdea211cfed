#pragma once
// The cycles one module instance spends in one part of its program for one tile when it never
// waits on a FIFO: the static cost the performance model predicts and the timed simulation adds
// stalls to. The rules are the timed simulation's (timed_simulation.hpp), by classify_loop:
//   - a pipelined loop costs trip x ii + depth (depth also after zero trips), whatever its body's
//     guards skip;
//   - outside pipelined loops each execution of a user node takes one cycle (unrolled lane loops
//     there run their copies one after another); loops and guards add nothing.
#include <cstdint>
#include <vector>

#include "sadsl/comm/architecture.hpp"

namespace sadsl {

struct pipeline_timing {
  int64_t ii = 1;     ///< initiation interval of every pipelined loop
  int64_t depth = 0;  ///< cycles added at each exit of a pipelined loop (0: Odyssey's model)
};

/// Cycles of part `part` of module kind `kind` at instance `instance` for tile `tile` (one value
/// per tile loop, t0..).
int64_t part_cycles(const architecture& a, int kind, int part, int instance, const std::vector<int64_t>& tile,
                    const pipeline_timing& timing = {});

/// For each tile of `tiles`, the most cycles any instance of module kind `kind` spends in part
/// `part` for it: part_cycles over every instance, with the part compiled once and the
/// instances whose coordinates its loops and guards do not tell apart counted once.
std::vector<int64_t> most_part_cycles(const architecture& a, int kind, int part, const std::vector<std::vector<int64_t>>& tiles,
                                      const pipeline_timing& timing = {});

/// The tiles of phase `phase` (an index into a.phases), in the order the modules run them.
std::vector<std::vector<int64_t>> phase_tiles(const architecture& a, size_t phase);
/// The first `most` of them (the walk stops there).
std::vector<std::vector<int64_t>> phase_tiles(const architecture& a, size_t phase, size_t most);

}  // namespace sadsl
