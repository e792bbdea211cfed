// The architecture executor and the timed simulation: the host, the phases, a round-robin
// scheduler over the processes (exec_process.cpp) and, in timed runs, their clocks (exec_clock.cpp).
#include "sadsl/comm/executor.hpp"

#include <algorithm>
#include <deque>
#include <memory>

#include <fmt/format.h>

#include "exec_network.hpp"
#include "sadsl/comm/part_cycles.hpp"
#include "sadsl/error.hpp"
#include "sadsl/poly/evaluate.hpp"

namespace sadsl {

namespace {

using exec::channel;
using exec::dram_array;
using exec::linear;
using exec::process;

// The host: tensors to DRAM arrays (padded, laid out) and back.
class host {
public:
  host(const architecture& a, buffers& data) : a_(a), data_(data) {
    for (const auto& l : a.layouts) {
      dram_array d;
      d.layout = &l;
      d.name = l.tensor.name();
      d.bytes = type_size(l.element);
      int64_t n = 1;
      for (int64_t e : l.extents) n *= e;
      d.data.assign(static_cast<size_t>(n), 0);
      d.final_writes.assign(static_cast<size_t>(n), 0);
      if (!l.scratch) copy(d, true);
      arrays_.push_back(std::move(d));
    }
  }

  dram_array* array(const tensor_id& t) {
    for (auto& d : arrays_)
      if (d.layout->tensor == t) return &d;
    SADSL_INTERNAL_ASSERT(false, "no DRAM array for " + t.name());
  }

  void write_back() {
    for (auto& d : arrays_) {
      if (d.layout->scratch) continue;
      tensor_role role = data_.all().at(d.name).tensor->role;
      if (role == tensor_role::output || role == tensor_role::inout) copy(d, false);
    }
  }

  std::vector<dram_array>& arrays() { return arrays_; }

private:
  // Copies between the kernel's buffer (logical layout, real extents) and the DRAM array.
  void copy(dram_array& d, bool to_dram) {
    auto& b = data_.all().at(d.name);
    const auto& order = d.layout->order;
    std::vector<int64_t> at(b.extents.size(), 0);
    size_t n = 1;
    for (int64_t e : b.extents) n *= static_cast<size_t>(e);
    for (size_t i = 0; i < n; ++i) {
      size_t rest = i;
      for (size_t dim = b.extents.size(); dim-- > 0;) {
        at[dim] = static_cast<int64_t>(rest % static_cast<size_t>(b.extents[dim]));
        rest /= static_cast<size_t>(b.extents[dim]);
      }
      std::vector<int64_t> stored;
      for (int o : order) stored.push_back(at[static_cast<size_t>(o)]);
      size_t off = static_cast<size_t>(linear(d.layout->extents, stored, 1, [&] { return "host " + d.name; }));
      std::visit(
          [&](auto& v) {
            using T = typename std::decay_t<decltype(v)>::value_type;
            if (to_dram) d.data[off] = element_bits<T>(v[i]);
            else v[i] = element_value<T>(d.data[off]);
          },
          b.data);
    }
  }

  const architecture& a_;
  buffers& data_;
  std::vector<dram_array> arrays_;
};

}  // namespace

namespace exec {

void run_network(const architecture& a, buffers& data, const timing_options* timing, timed_result& result) {
  const design& d = *a.design;
  const program& p = *d.band->source;
  for (const auto& l : a.layouts) {
    if (l.scratch) continue;
    const auto& b = data.all().at(l.tensor.name());
    for (size_t dim = 0; dim < l.order.size(); ++dim)
      if (b.extents[static_cast<size_t>(l.order[dim])] > l.extents[dim])
        throw error(fmt::format("execute: tensor \"{}\" is larger than the architecture of design {} was built for "
                                "(set the kernel's params to the problem size of the architecture)",
                                l.tensor.name(), d.name()));
  }
  int64_t simd = d.simd ? a.point.factors.at({*d.simd, tile_level::simd}) : 1;
  std::vector<statement_evaluator> evaluators;
  for (const auto& s : p.statements()) evaluators.emplace_back(*s.record);
  const size_t tiles = d.tile_order.size();
  std::vector<std::vector<exec::compiled_part>> parts(a.modules.size());
  for (size_t k = 0; k < a.modules.size(); ++k)
    for (const auto& part : a.modules[k].parts)
      parts[k].push_back(exec::compile_part(part, tiles, a.modules[k].index_dims.size()));

  host h(a, data);
  for (size_t phase = 0; phase < a.phases.size(); ++phase) {
    std::vector<std::vector<int64_t>> tile_list = phase_tiles(a, phase);
    std::vector<channel> channels(a.fifos.size());
    for (size_t f = 0; f < a.fifos.size(); ++f) channels[f].spec = &a.fifos[f];
    std::vector<std::unique_ptr<process>> procs;
    std::map<std::pair<int, int>, process*> by_instance;
    for (size_t k = 0; k < a.modules.size(); ++k) {
      std::vector<const exec::compiled_part*> kp;
      for (const auto& part : parts[k]) kp.push_back(&part);
      for (size_t i = 0; i < a.modules[k].instances.size(); ++i) {
        procs.push_back(std::make_unique<process>(a, static_cast<int>(k), static_cast<int>(i), kp, tile_list, simd));
        by_instance[{static_cast<int>(k), static_cast<int>(i)}] = procs.back().get();
        if (a.modules[k].dram) procs.back()->bind_dram(h.array(a.modules[k].dram->tensor));
        procs.back()->bind_evaluators(&evaluators);
      }
    }
    std::vector<exec::process_clock> clocks(timing ? procs.size() : 0, exec::process_clock(timing ? *timing : timing_options{}));
    if (timing) {
      for (size_t i = 0; i < procs.size(); ++i) procs[i]->bind_clock(&clocks[i]);
    }
    std::map<process*, std::vector<channel*>> ports;
    for (const auto& [key, proc] : by_instance) ports[proc].assign(a.modules[static_cast<size_t>(key.first)].ports.size(), nullptr);
    for (size_t f = 0; f < a.fifos.size(); ++f) {
      const fifo& x = a.fifos[f];
      ports[by_instance.at({x.producer_kind, x.producer_instance})][static_cast<size_t>(x.producer_port)] = &channels[f];
      ports[by_instance.at({x.consumer_kind, x.consumer_instance})][static_cast<size_t>(x.consumer_port)] = &channels[f];
    }
    for (auto& [proc, list] : ports) proc->bind(list);
    // Round robin until every process is done, or none can move.
    while (true) {
      bool progress = false, all_done = true;
      for (auto& pr : procs) {
        if (pr->done()) continue;
        progress = pr->step() || progress;
        all_done = all_done && pr->done();
      }
      if (all_done) break;
      if (!progress) {
        std::vector<std::string> waits;
        for (auto& pr : procs)
          if (!pr->done()) waits.push_back(pr->waiting());
        result.deadlock = fmt::format("deadlock in phase {}: {}", result.phases, fmt::join(waits, "; "));
        return;
      }
    }
    for (auto& c : channels) {
      if (timing && timing->fifo_peaks) {
        int64_t& peak = result.fifo_peak[c.spec->name];
        peak = std::max(peak, exec::peak_occupancy(c.write_log, c.read_log));
        c.write_log.clear();
        c.read_log.clear();
      }
      if (!c.queue.empty())
        throw internal_error(fmt::format("executor: {} still holds {} token(s) at the end of phase {}", c.spec->name,
                                         c.queue.size(), result.phases));
      result.fifo_tokens[c.spec->name] += c.written;
    }
    if (timing) {
      // The phase lasts until its last process finishes; finish cycles count from the run's start.
      int64_t offset = result.cycles, phase_cycles = 0;
      for (const auto& c : clocks) phase_cycles = std::max(phase_cycles, c.finish());
      for (size_t i = 0; i < procs.size(); ++i) {
        const std::string& name = procs[i]->name();
        int64_t& finish = result.finish[name];
        result.stalled[name] += clocks[i].fifo_stall();
        result.dram_stalled[name] += clocks[i].dram_stall();
        int64_t& kind = result.kind_finish[a.modules[static_cast<size_t>(procs[i]->kind())].name];
        // A process that ran nothing in this phase (LU's reload of V in the first k tile) keeps
        // the finish of the last phase it ran in.
        bool ran = clocks[i].first_issue() >= 0 || clocks[i].finish() > 0;
        if (!ran) continue;
        finish = offset + clocks[i].finish();
        kind = std::max(kind, finish);
      }
      if (timing->trace) {
        phase_timing t;
        t.phase = a.phases[phase];
        t.start = offset;
        t.cycles = phase_cycles;
        for (size_t i = 0; i < procs.size(); ++i) {
          const exec::process_clock& c = clocks[i];
          t.instances.push_back({procs[i]->name(), procs[i]->kind(), c.first_issue(), c.finish(), c.units(), c.fifo_stall(),
                                 c.dram_stall(), c.dram_accesses()});
        }
        result.trace.push_back(std::move(t));
      }
      result.phase_cycles.push_back(phase_cycles);
      result.cycles += phase_cycles;
    }
    ++result.phases;
  }
  h.write_back();
  for (const auto& d : h.arrays()) {
    result.dram_bytes_read[d.name] += d.read;
    result.dram_bytes_written[d.name] += d.written;
  }
}

}  // namespace exec

execution_result execute(const architecture& a, buffers& data) {
  timed_result r;
  exec::run_network(a, data, nullptr, r);
  return std::move(static_cast<execution_result&>(r));
}

}  // namespace sadsl
