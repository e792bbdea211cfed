// The timed simulation: the executor's run with a clock per process (exec_clock.cpp), and the
// timeline of a traced run.
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

namespace {

// A JSON string literal of s (names of designs and instances are plain text, but escape anyway).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += {'\\', c};
    else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<int>(c));
    else out += c;
  }
  return out + "\"";
}

}  // namespace

std::string timeline_json(const architecture& a, const timed_result& r) {
  // Track 0 shows the phases; track n + 1 the n-th module instance (the same index in every phase).
  std::vector<std::string> events;
  events.push_back(fmt::format(R"({{"name":"process_name","ph":"M","pid":0,"args":{{"name":{}}}}})",
                               quoted("design " + a.design->name())));
  events.push_back(R"({"name":"thread_name","ph":"M","pid":0,"tid":0,"args":{"name":"phases"}})");
  std::vector<bool> named;
  for (size_t p = 0; p < r.trace.size(); ++p) {
    const phase_timing& t = r.trace[p];
    std::vector<std::string> tile;
    for (int64_t v : t.phase) tile.push_back(std::to_string(v));
    events.push_back(fmt::format(R"({{"name":{},"ph":"X","pid":0,"tid":0,"ts":{},"dur":{}}})",
                                 quoted(fmt::format("phase {} ({})", p, fmt::join(tile, ", "))), t.start, t.cycles));
    named.resize(std::max(named.size(), t.instances.size()), false);
    for (size_t i = 0; i < t.instances.size(); ++i) {
      const instance_timing& m = t.instances[i];
      if (m.start < 0) continue;  // ran no unit in this phase
      if (!named[i]) {
        named[i] = true;
        events.push_back(fmt::format(R"({{"name":"thread_name","ph":"M","pid":0,"tid":{},"args":{{"name":{}}}}})", i + 1,
                                     quoted(m.name)));
      }
      const std::string& kind = a.modules.at(static_cast<size_t>(m.kind)).name;
      events.push_back(fmt::format(
          R"({{"name":{},"cat":{},"ph":"X","pid":0,"tid":{},"ts":{},"dur":{},"args":{{"units":{},"fifo_stall":{},"dram_stall":{},"dram_accesses":{}}}}})",
          quoted(kind), quoted(kind), i + 1, t.start + m.start, m.finish - m.start, m.units, m.fifo_stall, m.dram_stall,
          m.dram_accesses));
    }
  }
  // Trace Event Format timestamps are microseconds: one cycle shows as one (no displayTimeUnit,
  // which would scale them).
  return fmt::format("{{\"traceEvents\":[\n{}\n]}}\n", fmt::join(events, ",\n"));
}

}  // namespace sadsl
