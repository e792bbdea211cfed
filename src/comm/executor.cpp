// The architecture executor: processes, bounded FIFOs, a round-robin scheduler, DRAM and the host.
#include "sadsl/comm/executor.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>

#include <fmt/format.h>

#include "exec_program.hpp"
#include "sadsl/error.hpp"
#include "sadsl/poly/evaluate.hpp"

namespace sadsl {

namespace {

using token = std::vector<uint64_t>;

struct channel {
  const fifo* spec = nullptr;
  std::deque<token> queue;
  int64_t written = 0;
};

// A DRAM array: a tensor in its stored layout and padded extents, as element bit patterns.
struct dram_array {
  const host_layout* layout = nullptr;
  std::string name;
  int bytes = 4;
  std::vector<uint64_t> data;
  std::vector<int32_t> final_writes;  // per element: writes by a drain network
  int64_t read = 0, written = 0;
};

int64_t linear(const std::vector<int64_t>& extents, const std::vector<int64_t>& at, int64_t lanes, const std::string& what) {
  int64_t off = 0;
  for (size_t d = 0; d < extents.size(); ++d) {
    int64_t reach = at[d] + (d + 1 == extents.size() ? lanes - 1 : 0);
    if (at[d] < 0 || reach >= extents[d])
      throw internal_error(fmt::format("executor: {} index {} = {} (+{} lanes) outside [0, {})", what, d, at[d], lanes - 1,
                                       extents[d]));
    off = off * extents[d] + at[d];
  }
  return off;
}

// One module instance: its parts to run, tile by tile, and where it stands.
class process {
public:
  struct run {
    const exec::compiled_part* part;
    std::vector<int64_t> tile;
    int copy;  // which copy of double buffers
  };

  process(const architecture& a, int kind, int instance, std::vector<const exec::compiled_part*> parts,
          const std::vector<std::vector<int64_t>>& tiles, int64_t simd)
      : a_(a), kind_(kind), simd_(simd), k_(a.modules[static_cast<size_t>(kind)]) {
    coords_ = k_.instances[static_cast<size_t>(instance)];
    name_ = k_.name;
    if (!coords_.empty()) {
      std::vector<std::string> c;
      for (int64_t v : coords_) c.push_back(std::to_string(v));
      name_ += "[" + fmt::format("{}", fmt::join(c, ",")) + "]";
    }
    for (const auto& b : k_.buffers)
      buffers_.push_back(std::vector<uint64_t>(static_cast<size_t>(b.size() * (b.double_buffered ? 2 : 1)), 0));
    // Current-tile parts at each tile; previous-tile parts one tile later, then after the last.
    for (size_t n = 0; n < tiles.size(); ++n) {
      for (const auto* p : parts)
        if (!p->previous_tile) runs_.push_back({p, tiles[n], static_cast<int>(n % 2)});
      if (n > 0)
        for (const auto* p : parts)
          if (p->previous_tile) runs_.push_back({p, tiles[n - 1], static_cast<int>((n - 1) % 2)});
    }
    if (!tiles.empty())
      for (const auto* p : parts)
        if (p->previous_tile) runs_.push_back({p, tiles.back(), static_cast<int>((tiles.size() - 1) % 2)});
  }

  void bind(std::vector<channel*> ports) { ports_ = std::move(ports); }
  void bind_dram(dram_array* d) { dram_ = d; }
  void bind_evaluators(const std::vector<statement_evaluator>* e) { evaluators_ = e; }
  const std::string& name() const { return name_; }
  bool done() const { return next_run_ >= runs_.size() && stack_.empty(); }
  // What it waits for, with the FIFO's state now.
  std::string waiting() const {
    if (!waiting_on_) return name_ + " is not waiting";
    bool full = waiting_to_write_;
    return fmt::format("{} waits to {} {} ({}{})", name_, full ? "write" : "read", waiting_on_->spec->name,
                       full ? "full" : "empty", full ? fmt::format(", depth {}", waiting_on_->spec->depth) : "") +
           (static_cast<int64_t>(waiting_on_->queue.size()) == (full ? waiting_on_->spec->depth : 0)
                ? ""
                : fmt::format(" [now {} tokens]", waiting_on_->queue.size()));
  }

  // Runs until it blocks on a FIFO or finishes; true when it made progress.
  bool step() {
    moved_ = false;
    while (true) {
      if (stack_.empty()) {
        if (next_run_ >= runs_.size()) return moved_;
        start(runs_[next_run_++]);
        moved_ = true;
      }
      if (!advance()) return moved_;
    }
  }

private:
  struct frame {
    const exec::node* n;
    size_t child = 0;
    bool entered = false;
    size_t op = 0;
  };

  struct reg {
    uint64_t value = 0;
    token word;
  };

  void start(const run& r) {
    current_ = &r;
    slots_.assign(static_cast<size_t>(r.part->slots), 0);
    for (size_t j = 0; j < r.tile.size(); ++j) slots_[j] = r.tile[j];
    for (size_t i = 0; i < coords_.size(); ++i) slots_[r.tile.size() + i] = coords_[i];
    stack_.push_back({&r.part->root});
  }

  // Executes until the current part finishes (true) or an operation blocks (false).
  bool advance() {
    while (!stack_.empty()) {
      frame& f = stack_.back();
      const exec::node& n = *f.n;
      const int64_t* s = slots_.data();
      switch (n.kind) {
        case exec::node_kind::for_loop:
          if (!f.entered) {
            slots_[static_cast<size_t>(n.slot)] = exec::evaluate(n.init, s);
            f.entered = true;
          } else {
            slots_[static_cast<size_t>(n.slot)] += exec::evaluate(n.inc, s);
          }
          if (exec::evaluate(n.cond, slots_.data())) stack_.push_back({&n.children[0]});
          else stack_.pop_back();
          break;
        case exec::node_kind::if_then:
          if (f.entered) {
            stack_.pop_back();
          } else {
            f.entered = true;
            if (exec::evaluate(n.cond, s)) stack_.push_back({&n.children[0]});
            else if (n.children.size() > 1) stack_.push_back({&n.children[1]});
          }
          break;
        case exec::node_kind::block:
          if (f.child < n.children.size()) stack_.push_back({&n.children[f.child++]});
          else stack_.pop_back();
          break;
        case exec::node_kind::user: {
          if (n.block < 0) {
            stack_.pop_back();
            break;
          }
          const exec::compiled_block& b = current_->part->blocks[static_cast<size_t>(n.block)];
          while (f.op < b.ops.size()) {
            if (!execute(b, b.ops[f.op])) return false;
            ++f.op;
            moved_ = true;
          }
          stack_.pop_back();
          break;
        }
      }
    }
    return true;
  }

  std::vector<reg>& registers(int statement) {
    auto& r = regs_[statement];
    if (r.empty()) r.resize(64);
    return r;
  }

  int64_t lane(const exec::compiled_op& op) const { return op.has_lane ? exec::evaluate(op.lane, slots_.data()) : 0; }

  std::vector<int64_t> index(const exec::compiled_op& op) const {
    std::vector<int64_t> out;
    for (const auto& x : op.index) out.push_back(exec::evaluate(x, slots_.data()));
    return out;
  }

  bool execute(const exec::compiled_block& b, const exec::compiled_op& op) {
    if (op.has_when && !exec::evaluate(op.when, slots_.data())) return true;
    reg& r = registers(b.statement_index)[static_cast<size_t>(op.slot)];
    switch (op.what) {
      case operation::kind::read_port: {
        channel& c = *ports_[static_cast<size_t>(op.port)];
        int64_t l = lane(op);
        if (!op.vector || l == 0) {
          if (c.queue.empty()) return block_on(c, false);
          r.word = std::move(c.queue.front());
          c.queue.pop_front();
        }
        r.value = r.word[static_cast<size_t>(op.vector && op.lanes > 1 ? l : 0)];
        return true;
      }
      case operation::kind::write_port: {
        channel& c = *ports_[static_cast<size_t>(op.port)];
        int64_t l = lane(op);
        if (b.statement_index >= 0) {  // a PE's value: into its (vector) token
          if (r.word.size() != static_cast<size_t>(op.lanes)) r.word.assign(static_cast<size_t>(op.lanes), 0);
          r.word[static_cast<size_t>(op.vector && op.lanes > 1 ? l : 0)] = r.value;
        }
        if (op.vector && l != simd_ - 1) return true;
        if (static_cast<int64_t>(c.queue.size()) >= c.spec->depth) return block_on(c, true);
        c.queue.push_back(r.word);
        ++c.written;
        return true;
      }
      case operation::kind::read_local:
      case operation::kind::write_local: {
        const buffer& spec = k_.buffers[static_cast<size_t>(op.buffer)];
        auto& data = buffers_[static_cast<size_t>(op.buffer)];
        int64_t base = (spec.double_buffered ? current_->copy : 0) * spec.size();
        int64_t at = base + linear(spec.extents, index(op), op.lanes, name_ + " buffer " + spec.name);
        if (op.what == operation::kind::read_local) {
          r.word.assign(data.begin() + at, data.begin() + at + op.lanes);
          r.value = r.word[0];
        } else {
          if (b.statement_index >= 0) r.word.assign(1, r.value);
          std::copy(r.word.begin(), r.word.begin() + op.lanes, data.begin() + at);
        }
        return true;
      }
      case operation::kind::read_dram:
      case operation::kind::write_dram: {
        int64_t at = linear(dram_->layout->extents, index(op), op.lanes, name_ + " DRAM " + dram_->name);
        if (op.what == operation::kind::read_dram) {
          r.word.assign(dram_->data.begin() + at, dram_->data.begin() + at + op.lanes);
          dram_->read += op.lanes * dram_->bytes;
        } else {
          std::copy(r.word.begin(), r.word.end(), dram_->data.begin() + at);
          dram_->written += op.lanes * dram_->bytes;
          if (a_.networks[static_cast<size_t>(k_.network)].kind == io_group_kind::output)
            for (int64_t l = 0; l < op.lanes; ++l)
              if (++dram_->final_writes[static_cast<size_t>(at + l)] > 1)
                throw internal_error(fmt::format("executor: {} writes a final value of {} twice", name_, dram_->name));
        }
        return true;
      }
      case operation::kind::compute: {
        auto& regs = registers(b.statement_index);
        uint64_t reads[64];
        for (int i = 0; i < op.slot; ++i) reads[i] = regs[static_cast<size_t>(i)].value;
        r.value = (*evaluators_)[static_cast<size_t>(b.statement_index)](reads);
        return true;
      }
    }
    return true;
  }

  bool block_on(const channel& c, bool write) {
    waiting_on_ = &c;
    waiting_to_write_ = write;
    return false;
  }

  const architecture& a_;
  int kind_;
  int64_t simd_;
  const module_kind& k_;
  std::vector<int64_t> coords_;
  std::string name_;
  std::vector<std::vector<uint64_t>> buffers_;
  std::vector<run> runs_;
  size_t next_run_ = 0;
  const run* current_ = nullptr;
  std::vector<int64_t> slots_;
  std::vector<frame> stack_;
  std::map<int, std::vector<reg>> regs_;
  std::vector<channel*> ports_;
  dram_array* dram_ = nullptr;
  const std::vector<statement_evaluator>* evaluators_ = nullptr;
  bool moved_ = false;  // an operation ran since step() began
  const channel* waiting_on_ = nullptr;
  bool waiting_to_write_ = false;
};

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
      size_t off = static_cast<size_t>(linear(d.layout->extents, stored, 1, "host " + d.name));
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

execution_result execute(const architecture& a, buffers& data) {
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
  exec::compiled_part tile_loops = exec::compile_tiles(a.tiles, tiles);

  host h(a, data);
  execution_result result;
  for (const auto& phase : a.phases) {
    // The tiles of this phase, in order.
    std::vector<std::vector<int64_t>> tile_list;
    {
      std::vector<int64_t> slots(static_cast<size_t>(tile_loops.slots), 0);
      for (size_t j = 0; j < a.phase_loops.size(); ++j) slots[a.phase_loops[j]] = phase[j];
      std::vector<const exec::node*> stack;
      std::function<void(const exec::node&)> walk = [&](const exec::node& n) {
        switch (n.kind) {
          case exec::node_kind::for_loop:
            for (slots[static_cast<size_t>(n.slot)] = exec::evaluate(n.init, slots.data()); exec::evaluate(n.cond, slots.data());
                 slots[static_cast<size_t>(n.slot)] += exec::evaluate(n.inc, slots.data()))
              walk(n.children[0]);
            break;
          case exec::node_kind::if_then:
            if (exec::evaluate(n.cond, slots.data())) walk(n.children[0]);
            else if (n.children.size() > 1) walk(n.children[1]);
            break;
          case exec::node_kind::block:
            for (const auto& c : n.children) walk(c);
            break;
          case exec::node_kind::user: {
            std::vector<int64_t> t;
            for (const auto& x : n.args) t.push_back(exec::evaluate(x, slots.data()));
            tile_list.push_back(std::move(t));
            break;
          }
        }
      };
      walk(tile_loops.root);
    }
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
        return result;
      }
    }
    for (const auto& c : channels) {
      if (!c.queue.empty())
        throw internal_error(fmt::format("executor: {} still holds {} token(s) at the end of phase {}", c.spec->name,
                                         c.queue.size(), result.phases));
      result.fifo_tokens[c.spec->name] += c.written;
    }
    ++result.phases;
  }
  h.write_back();
  for (const auto& d : h.arrays()) {
    result.dram_bytes_read[d.name] += d.read;
    result.dram_bytes_written[d.name] += d.written;
  }
  return result;
}

}  // namespace sadsl
