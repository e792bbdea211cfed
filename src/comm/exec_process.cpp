// A process of the executor: one module instance walking its compiled parts tile by tile, its
// operations on registers, local buffers, FIFOs and DRAM; in timed runs, its clock sees each unit.
#include <algorithm>

#include <fmt/format.h>

#include "exec_network.hpp"
#include "sadsl/error.hpp"

namespace sadsl::exec {

int outside_dimension(const std::vector<int64_t>& extents, const std::vector<int64_t>& at, int64_t lanes) {
  for (size_t d = 0; d < extents.size(); ++d) {
    int64_t reach = at[d] + (d + 1 == extents.size() ? lanes - 1 : 0);
    if (at[d] < 0 || reach >= extents[d]) return static_cast<int>(d);
  }
  return -1;
}

void throw_outside(const std::vector<int64_t>& extents, const std::vector<int64_t>& at, int64_t lanes, const std::string& what) {
  size_t d = static_cast<size_t>(outside_dimension(extents, at, lanes));
  throw internal_error(fmt::format("executor: {} index {} = {} (+{} lanes) outside [0, {})", what, d, at[d], lanes - 1, extents[d]));
}

process::process(const architecture& a, int kind, int instance, std::vector<const compiled_part*> parts,
                 const std::vector<std::vector<int64_t>>& tiles, int64_t simd)
    : a_(a), kind_(kind), simd_(simd), k_(a.modules[static_cast<size_t>(kind)]) {
  coords_ = k_.instances[static_cast<size_t>(instance)];
  name_ = k_.name;
  if (!coords_.empty()) {
    std::vector<std::string> c;
    for (int64_t v : coords_) c.push_back(std::to_string(v));
    name_ += fmt::format("[{}]", fmt::join(c, ","));
  }
  // Registers for every statement the parts run (and -1, an I/O module's operations), made here
  // rather than looked up per operation.
  int statements = 0;
  for (const auto* p : parts)
    for (const auto& b : p->blocks) statements = std::max(statements, b.statement_index + 1);
  regs_.assign(static_cast<size_t>(statements + 1), std::vector<reg>(64));
  for (const auto& b : k_.buffers) {
    buffer_sizes_.push_back(b.size());
    buffers_.push_back(std::vector<uint64_t>(static_cast<size_t>(b.size() * (b.double_buffered ? 2 : 1)), 0));
  }
  // Current-tile parts at each tile; previous-tile parts one tile later, then after the last.
  for (size_t n = 0; n < tiles.size(); ++n) {
    for (const auto* p : parts)
      if (!p->previous_tile) runs_.push_back({p, tiles[n], static_cast<int>(n % 2), n});
    if (n > 0)
      for (const auto* p : parts)
        if (p->previous_tile) runs_.push_back({p, tiles[n - 1], static_cast<int>((n - 1) % 2), n});
  }
  if (!tiles.empty())
    for (const auto* p : parts)
      if (p->previous_tile) runs_.push_back({p, tiles.back(), static_cast<int>((tiles.size() - 1) % 2), tiles.size()});
}

std::string process::waiting() const {
  if (!waiting_on_) return name_ + " is not waiting";
  bool full = waiting_to_write_;
  std::string what = full ? "write" : "read";
  if (waiting_for_cycle_)
    return fmt::format("{} waits to {} {} for the cycle of the token's {} (its unit is still open)", name_, what,
                       waiting_on_->spec->name, full ? "earlier read" : "write");
  return fmt::format("{} waits to {} {} ({}{})", name_, what, waiting_on_->spec->name, full ? "full" : "empty",
                     full ? fmt::format(", depth {}", waiting_on_->spec->depth) : "") +
         (static_cast<int64_t>(waiting_on_->queue.size()) == (full ? waiting_on_->spec->depth : 0)
              ? ""
              : fmt::format(" [now {} tokens]", waiting_on_->queue.size()));
}

bool process::step() {
  moved_ = false;
  while (true) {
    if (stack_.empty()) {
      if (next_run_ >= runs_.size()) return moved_;
      start(runs_[next_run_++]);
      moved_ = true;
    }
    if (!advance()) return moved_;
    if (clock_) clock_->end_run();
  }
}

void process::start(const run& r) {
  current_ = &r;
  slots_.assign(static_cast<size_t>(r.part->slots), 0);
  for (size_t j = 0; j < r.tile.size(); ++j) slots_[j] = r.tile[j];
  for (size_t i = 0; i < coords_.size(); ++i) slots_[r.tile.size() + i] = coords_[i];
  stack_.push_back({&r.part->root});
  if (clock_) clock_->start_run(r.step, r.part->previous_tile);
}

// Executes until the current part finishes (true) or an operation blocks (false). A timed run's
// units: each iteration of a pipelined loop, each user node outside one.
bool process::advance() {
  while (!stack_.empty()) {
    frame& f = stack_.back();
    const node& n = *f.n;
    const int64_t* s = slots_.data();
    switch (n.kind) {
      case node_kind::for_loop: {
        bool timed_pipeline = clock_ && n.loop == loop_kind::pipelined;
        int64_t& iterator = slots_[static_cast<size_t>(n.slot)];
        if (!f.entered) {
          iterator = evaluate(n.init, s);
          if (n.hoisted) f.bound = evaluate(n.bound, s);
          f.entered = true;
          if (timed_pipeline) clock_->enter_pipeline();
        } else {
          if (timed_pipeline) clock_->close_unit();  // an iteration's body ran
          iterator += evaluate(n.inc, s);
        }
        bool more = n.hoisted ? (n.strict ? iterator < f.bound : iterator <= f.bound) : evaluate(n.cond, s) != 0;
        if (more) {
          if (timed_pipeline) clock_->open_unit();
          stack_.push_back({&n.children[0]});
        } else {
          if (timed_pipeline) clock_->exit_pipeline();
          stack_.pop_back();
        }
        break;
      }
      case node_kind::if_then:
        if (f.entered) {
          stack_.pop_back();
        } else {
          f.entered = true;
          if (evaluate(n.cond, s)) stack_.push_back({&n.children[0]});
          else if (n.children.size() > 1) stack_.push_back({&n.children[1]});
        }
        break;
      case node_kind::block:
        if (f.child < n.children.size()) stack_.push_back({&n.children[f.child++]});
        else stack_.pop_back();
        break;
      case node_kind::user: {
        if (n.block < 0) {
          stack_.pop_back();
          break;
        }
        bool own_unit = clock_ && !clock_->in_pipeline();
        if (own_unit && !f.entered) clock_->open_unit();
        f.entered = true;
        const compiled_block& b = current_->part->blocks[static_cast<size_t>(n.block)];
        while (f.op < b.ops.size()) {
          if (!execute(b, b.ops[f.op])) return false;
          ++f.op;
          moved_ = true;
        }
        if (own_unit) clock_->close_unit();
        stack_.pop_back();
        break;
      }
    }
  }
  return true;
}

const std::vector<int64_t>& process::index(const compiled_op& op) {
  index_.resize(op.index.size());
  for (size_t d = 0; d < op.index.size(); ++d) index_[d] = evaluate(op.index[d], slots_.data());
  return index_;
}

bool process::execute(const compiled_block& b, const compiled_op& op) {
  if (op.has_when && !evaluate(op.when, slots_.data())) return true;
  std::vector<reg>& regs = registers(b.statement_index);
  reg& r = regs[static_cast<size_t>(op.slot)];
  switch (op.what) {
    case operation::kind::read_port: {
      channel& c = *ports_[static_cast<size_t>(op.port)];
      int64_t l = lane(op);
      if (!op.vector || l == 0) {
        if (c.queue.empty()) return block_on(c, false, false);
        if (clock_ && !clock_->read(c)) return block_on(c, false, true);
        r.word.swap(c.queue.front());
        c.spare.push_back(std::move(c.queue.front()));  // the register's old word, for a write to reuse
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
      if (static_cast<int64_t>(c.queue.size()) >= c.spec->depth) return block_on(c, true, false);
      if (clock_ && !clock_->write(c)) return block_on(c, true, true);
      if (c.spare.empty()) {
        c.queue.push_back(r.word);
      } else {
        c.queue.push_back(std::move(c.spare.back()));
        c.spare.pop_back();
        c.queue.back().assign(r.word.begin(), r.word.end());
      }
      ++c.written;
      return true;
    }
    case operation::kind::read_local:
    case operation::kind::write_local: {
      const buffer& spec = k_.buffers[static_cast<size_t>(op.buffer)];
      auto& data = buffers_[static_cast<size_t>(op.buffer)];
      int64_t base = (spec.double_buffered ? current_->copy : 0) * buffer_sizes_[static_cast<size_t>(op.buffer)];
      int64_t at = base + linear(spec.extents, index(op), op.lanes, [&] { return name_ + " buffer " + spec.name; });
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
      int64_t at = linear(dram_->layout->extents, index(op), op.lanes, [&] { return name_ + " DRAM " + dram_->name; });
      if (clock_) clock_->dram(op.lanes * dram_->bytes);
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
    case operation::kind::copy_register: {
      const reg& from = registers(op.from_statement)[static_cast<size_t>(op.from_slot)];
      r.value = from.value;
      r.word = from.word;
      return true;
    }
    case operation::kind::compute: {
      uint64_t reads[64];
      for (int i = 0; i < op.slot; ++i) reads[i] = regs[static_cast<size_t>(i)].value;
      r.value = (*evaluators_)[static_cast<size_t>(b.statement_index)](reads);
      return true;
    }
  }
  return true;
}

bool process::block_on(const channel& c, bool write, bool for_cycle) {
  waiting_on_ = &c;
  waiting_to_write_ = write;
  waiting_for_cycle_ = for_cycle;
  return false;
}

}  // namespace sadsl::exec
