// The clock of a process in a timed run: the rules of timed_simulation.hpp, unit by unit.
#include <algorithm>
#include <cmath>

#include "exec_network.hpp"
#include "sadsl/error.hpp"

namespace sadsl::exec {

void process_clock::start_run(size_t step, bool previous_side) {
  // A new tile step starts when both sides of the last one have ended.
  if (!started_ || step != step_) {
    side_end_[0] = side_end_[1] = finish();
    step_ = step;
    started_ = true;
  }
  side_ = previous_side ? 1 : 0;
  clock_ = side_end_[side_];
}

void process_clock::end_run() {
  SADSL_INTERNAL_ASSERT(pipelines_ == 0, "timed simulation: a part ended inside a pipelined loop");
  side_end_[side_] = clock_;
}

void process_clock::exit_pipeline() {
  --pipelines_;
  clock_ += o_.pipeline_depth;
}

void process_clock::open_unit() {
  need_ = clock_;
  stamps_.clear();
  dram_bytes_.clear();
}

void process_clock::close_unit() {
  int64_t issue = need_;
  fifo_stall_ += issue - clock_;
  if (!dram_bytes_.empty()) {
    // The port serves the unit's accesses in order; none completes before the unit's cycle.
    for (int64_t b : dram_bytes_) port_ = std::max(static_cast<double>(issue), port_ + static_cast<double>(b) / o_.dram_bytes_per_cycle);
    // Whole cycles: the tolerance keeps a port clock of 3.0000000001 (rounding) at 3.
    int64_t ready = static_cast<int64_t>(std::ceil(port_ - 1e-9));
    dram_stall_ += std::max<int64_t>(0, ready - issue);
    issue = std::max(issue, ready);
  }
  if (first_issue_ < 0) first_issue_ = issue;
  ++units_;
  dram_accesses_ += static_cast<int64_t>(dram_bytes_.size());
  for (auto [slot, add, log] : stamps_) {
    *slot = issue + add;
    if (log) log->push_back(issue);
  }
  stamps_.clear();
  dram_bytes_.clear();
  clock_ = issue + (in_pipeline() ? o_.ii : 1);
}

int64_t peak_occupancy(const std::vector<int64_t>& writes, const std::vector<int64_t>& reads) {
  int64_t peak = 0;
  size_t before = 0;
  for (size_t n = 0; n < writes.size(); ++n) {
    while (before < reads.size() && reads[before] < writes[n]) ++before;
    peak = std::max(peak, static_cast<int64_t>(n + 1 - before));
  }
  return peak;
}

bool process_clock::read(channel& c) {
  SADSL_INTERNAL_ASSERT(!c.ready.empty(), "timed simulation: a token without its cycle");
  if (c.ready.front() == pending) return false;
  need_ = std::max(need_, c.ready.front());
  c.ready.pop_front();
  c.read_at.push_back(pending);
  stamps_.push_back({&c.read_at.back(), 0, o_.fifo_peaks ? &c.read_log : nullptr});
  return true;
}

bool process_clock::write(channel& c) {
  // The token `depth` places earlier must have been read, a cycle before.
  int64_t earlier = c.written - c.spec->depth;
  if (earlier >= 0) {
    SADSL_INTERNAL_ASSERT(earlier >= c.read_base && earlier - c.read_base < static_cast<int64_t>(c.read_at.size()),
                          "timed simulation: a write into a full FIFO");
    int64_t at = c.read_at[static_cast<size_t>(earlier - c.read_base)];
    if (at == pending) return false;
    need_ = std::max(need_, at + 1);
    // Reads before it are in closed units (a process has one open unit): no longer needed.
    while (c.read_base < earlier) {
      c.read_at.pop_front();
      ++c.read_base;
    }
  }
  c.ready.push_back(pending);
  stamps_.push_back({&c.ready.back(), o_.fifo_latency, o_.fifo_peaks ? &c.write_log : nullptr});
  return true;
}

}  // namespace sadsl::exec
