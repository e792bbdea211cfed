// The timed simulation: the executor's run with a clock per process (exec_clock.cpp).
#include "sadsl/comm/timed_simulation.hpp"

#include <fmt/format.h>

#include "exec_network.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

timed_result simulate_timed(const architecture& a, buffers& data, const timing_options& options) {
  if (options.ii < 1) throw error(fmt::format("simulate_timed: the initiation interval must be at least 1 (is {})", options.ii));
  if (options.pipeline_depth < 0)
    throw error(fmt::format("simulate_timed: the pipeline depth must not be negative (is {})", options.pipeline_depth));
  if (options.fifo_latency < 0)
    throw error(fmt::format("simulate_timed: the FIFO latency must not be negative (is {})", options.fifo_latency));
  if (!(options.dram_bytes_per_cycle > 0))
    throw error(fmt::format("simulate_timed: the DRAM bandwidth must be positive (is {} bytes per cycle)",
                            options.dram_bytes_per_cycle));
  timed_result r;
  exec::run_network(a, data, &options, r);
  return r;
}

}  // namespace sadsl
