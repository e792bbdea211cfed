#pragma once
// The engine of the executor and the timed simulation: module instances as processes walking
// their compiled programs, FIFOs as bounded channels, DRAM arrays, and (timed runs only) a clock
// per process that gives each operation its cycle (the rules: timed_simulation.hpp).
//
// Timed runs compute cycles during the functional run, in its order: when an operation runs, the
// cycles its FIFO rules need (the cycle a token was written, the cycle the token `depth` places
// earlier was read) are known, except when they belong to a unit that is still open (its issue
// cycle is fixed only once all its operations ran). Such an operation waits like one on an empty
// or full FIFO; its cycle is "pending" until the other process closes its unit.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "exec_program.hpp"
#include "sadsl/comm/architecture.hpp"
#include "sadsl/comm/timed_simulation.hpp"
#include "sadsl/poly/evaluate.hpp"

namespace sadsl::exec {

using token = std::vector<uint64_t>;

/// A cycle not known yet: its unit is still open.
constexpr int64_t pending = -1;

struct channel {
  const fifo* spec = nullptr;
  std::deque<token> queue;
  std::vector<token> spare;  // the storage of words read, which writes reuse (no allocation per token)
  int64_t written = 0;
  // Timed runs only.
  std::deque<int64_t> ready;    // per queued token: the first cycle it can be read, or pending
  std::deque<int64_t> read_at;  // the cycles tokens read_base, read_base + 1, ... were read (or pending)
  int64_t read_base = 0;
  // With timing_options::fifo_peaks: the issue cycles of its writes and reads in this phase.
  std::vector<int64_t> write_log, read_log;
};

/// A DRAM array: a tensor in its stored layout and padded extents, as element bit patterns.
struct dram_array {
  const host_layout* layout = nullptr;
  std::string name;
  int bytes = 4;
  std::vector<uint64_t> data;
  std::vector<int32_t> final_writes;  // per element: writes by a drain network
  int64_t read = 0, written = 0;
};

/// The dimension where element `at` (+ lanes - 1 along the last dimension) is outside a box of
/// `extents`, or -1 when it is inside.
int outside_dimension(const std::vector<int64_t>& extents, const std::vector<int64_t>& at, int64_t lanes);

/// The most tokens a FIFO held at once, the new one included, from the issue cycles of its writes
/// and of its reads (each in token order): at write n, n + 1 less the reads before its cycle.
int64_t peak_occupancy(const std::vector<int64_t>& writes, const std::vector<int64_t>& reads);
[[noreturn]] void throw_outside(const std::vector<int64_t>& extents, const std::vector<int64_t>& at, int64_t lanes,
                                const std::string& what);

/// The offset of element `at` (+ lanes - 1 along the last dimension) in a row-major box;
/// internal_error naming what() when it is outside (what() runs only then: this is the executor's
/// innermost step).
template <class Name>
int64_t linear(const std::vector<int64_t>& extents, const std::vector<int64_t>& at, int64_t lanes, const Name& what) {
  if (outside_dimension(extents, at, lanes) >= 0) throw_outside(extents, at, lanes, what());
  int64_t off = 0;
  for (size_t d = 0; d < extents.size(); ++d) off = off * extents[d] + at[d];
  return off;
}

/// The clock of one process in a timed run: units, the two sides of a double buffer, the DRAM port.
class process_clock {
public:
  explicit process_clock(const timing_options& o) : o_(o) {}

  /// A part run starts: at tile step `step`, on the previous-tile side or not.
  void start_run(size_t step, bool previous_side);
  void end_run();
  void enter_pipeline() { ++pipelines_; }
  void exit_pipeline();
  bool in_pipeline() const { return pipelines_ > 0; }
  void open_unit();
  void close_unit();
  /// The FIFO rules of reading the front token of c (false: its ready cycle is pending; nothing
  /// changed). On true the caller pops the token.
  bool read(channel& c);
  /// The FIFO rules of writing the next token into c, which has room (false: the cycle of the
  /// read it waits for is pending; nothing changed). On true the caller pushes the token.
  bool write(channel& c);
  void dram(int64_t bytes) { dram_bytes_.push_back(bytes); }

  int64_t finish() const { return std::max(side_end_[0], side_end_[1]); }
  int64_t fifo_stall() const { return fifo_stall_; }
  int64_t dram_stall() const { return dram_stall_; }
  int64_t first_issue() const { return first_issue_; }  // -1 before its first unit
  int64_t units() const { return units_; }
  int64_t dram_accesses() const { return dram_accesses_; }

private:
  timing_options o_;
  size_t step_ = 0;
  bool started_ = false;
  int side_ = 0;
  int64_t side_end_[2] = {0, 0};
  int64_t clock_ = 0;
  int pipelines_ = 0;
  // The open unit: the earliest issue its FIFO rules allow, the cycles to fix at its close
  // (the slot and what to add to the issue cycle), its DRAM accesses.
  int64_t need_ = 0;
  struct stamp {
    int64_t* slot;
    int64_t add;
    std::vector<int64_t>* log;  // the channel's write or read log (fifo_peaks), or null
  };
  std::vector<stamp> stamps_;
  std::vector<int64_t> dram_bytes_;
  double port_ = 0;
  int64_t fifo_stall_ = 0, dram_stall_ = 0;
  int64_t first_issue_ = -1, units_ = 0, dram_accesses_ = 0;
};

/// One module instance: its parts to run, tile by tile, and where it stands.
class process {
public:
  struct run {
    const compiled_part* part;
    std::vector<int64_t> tile;
    int copy;     // which copy of double buffers
    size_t step;  // the tile step (previous-tile parts run one step after their tile)
  };

  process(const architecture& a, int kind, int instance, std::vector<const compiled_part*> parts,
          const std::vector<std::vector<int64_t>>& tiles, int64_t simd);

  void bind(std::vector<channel*> ports) { ports_ = std::move(ports); }
  void bind_dram(dram_array* d) { dram_ = d; }
  void bind_evaluators(const std::vector<statement_evaluator>* e) { evaluators_ = e; }
  /// Times this process's operations (a timed run).
  void bind_clock(process_clock* c) { clock_ = c; }
  const std::string& name() const { return name_; }
  int kind() const { return kind_; }
  bool done() const { return next_run_ >= runs_.size() && stack_.empty(); }
  /// What it waits for, with the FIFO's state now.
  std::string waiting() const;
  /// Runs until it blocks on a FIFO or finishes; true when it made progress.
  bool step();

private:
  struct frame {
    const node* n;
    size_t child = 0;
    bool entered = false;
    size_t op = 0;
    int64_t bound = 0;  // a loop's upper bound, when node::hoisted
  };

  struct reg {
    uint64_t value = 0;
    token word;
  };

  void start(const run& r);
  bool advance();
  bool execute(const compiled_block& b, const compiled_op& op);
  std::vector<reg>& registers(int statement) { return regs_[static_cast<size_t>(statement + 1)]; }  // -1: I/O
  int64_t lane(const compiled_op& op) const { return op.has_lane ? evaluate(op.lane, slots_.data()) : 0; }
  const std::vector<int64_t>& index(const compiled_op& op);  // in index_, reused
  bool block_on(const channel& c, bool write, bool for_cycle);

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
  std::vector<int64_t> index_;  // the element an operation accesses (index())
  std::vector<frame> stack_;
  std::vector<std::vector<reg>> regs_;  // per statement + 1 (registers())
  std::vector<int64_t> buffer_sizes_;    // per buffer: elements of one copy (buffer::size())
  std::vector<channel*> ports_;
  dram_array* dram_ = nullptr;
  const std::vector<statement_evaluator>* evaluators_ = nullptr;
  process_clock* clock_ = nullptr;
  bool moved_ = false;  // an operation ran since step() began
  const channel* waiting_on_ = nullptr;
  bool waiting_to_write_ = false;
  bool waiting_for_cycle_ = false;  // the FIFO allows it; the cycle its timing needs is pending
};

/// Runs architecture a on `data`: the executor (options null) or the timed simulation, which also
/// fills the cycles of `result`.
void run_network(const architecture& a, buffers& data, const timing_options* options, timed_result& result);

}  // namespace sadsl::exec
