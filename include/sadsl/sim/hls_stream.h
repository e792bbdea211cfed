// sadsl's own hls_stream.h for C simulation of generated Vitis HLS code with g++ or clang++.
//
// hls::stream<T> and hls::stream<T, DEPTH> follow the documented Vitis API (UG1399). How a stream
// behaves depends on the run it is used in (see sadsl_dataflow.h and docs/sim.md):
//  - outside a run and in sequential runs (Vitis C simulation): an unbounded FIFO; reading an empty
//    stream throws sadsl::sim::empty_read_error instead of returning an undefined value;
//  - in concurrent runs (every process on its own thread): a FIFO of DEPTH elements (unbounded when
//    no DEPTH is given) whose reads block while it is empty and whose writes block while it is full.
#ifndef SADSL_SIM_HLS_STREAM_H
#define SADSL_SIM_HLS_STREAM_H

#ifndef SADSL_SIM
#define SADSL_SIM 1
#endif

#include <climits>
#include <cstddef>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "sadsl_sim_runtime.h"

namespace sadsl {
namespace sim {
namespace detail {

// FIFO storage: a growable ring buffer, so steady streaming allocates nothing.
template <class T>
class ring_buffer {
 public:
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  void push(const T& v) {
    if (count_ == slots_.size()) grow();
    slots_[(head_ + count_) & (slots_.size() - 1)] = v;
    ++count_;
  }
  void pop_into(T& out) {
    out = std::move(slots_[head_]);
    head_ = (head_ + 1) & (slots_.size() - 1);
    --count_;
  }

 private:
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 4 : 2 * slots_.size());  // power of two: index by mask
    for (std::size_t i = 0; i < count_; ++i) bigger[i] = std::move(slots_[(head_ + i) & (slots_.size() - 1)]);
    slots_.swap(bigger);
    head_ = 0;
  }
  std::vector<T> slots_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace detail
}  // namespace sim
}  // namespace sadsl

namespace hls {

// DEPTH 0 means "not given": hls::stream<T> in Vitis. stream<T, DEPTH> derives from stream<T>, so a
// function taking hls::stream<T>& accepts streams of any depth, as in Vitis.
template <class T, int DEPTH = 0>
class stream;

template <class T>
class stream<T, 0> : public sadsl::sim::detail::stream_core {
 public:
  stream() : stream_core(nullptr, 0) {}
  explicit stream(const char* name) : stream_core(name, 0) {}
  explicit stream(const std::string& name) : stream_core(name.c_str(), 0) {}

  void write(const T& v) {
    sadsl::sim::detail::run_context* run = sadsl::sim::detail::concurrent_run();
    if (run == nullptr) {
      buffer_.push(v);
      add_size(1);
      count_write();
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    run->check_aborted();
    wait_for_space(lock, run);
    buffer_.push(v);
    add_size(1);
    count_write();
    wake_reader(run);
  }

  void read(T& v) {
    sadsl::sim::detail::run_context* run = sadsl::sim::detail::concurrent_run();
    if (run == nullptr) {
      if (size_ == 0) throw_empty_read();
      take(v);
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    run->check_aborted();
    wait_for_data(lock, run);
    take(v);
    wake_writer(run);
  }

  T read() {
    T v;
    read(v);
    return v;
  }

  void operator>>(T& v) { read(v); }
  void operator<<(const T& v) { write(v); }

  // Non-blocking: false, leaving v unchanged, when the stream is empty.
  bool read_nb(T& v) {
    sadsl::sim::detail::run_context* run = sadsl::sim::detail::concurrent_run();
    if (run == nullptr) {
      if (size_ == 0) return false;
      take(v);
      return true;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    run->check_aborted();
    if (size_ == 0) return false;
    take(v);
    wake_writer(run);
    return true;
  }

  // Non-blocking: false when the stream is full (only possible in concurrent runs with a DEPTH).
  bool write_nb(const T& v) {
    sadsl::sim::detail::run_context* run = sadsl::sim::detail::concurrent_run();
    if (run == nullptr) {
      write(v);
      return true;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    run->check_aborted();
    if (is_full_locked()) return false;
    buffer_.push(v);
    add_size(1);
    count_write();
    wake_reader(run);
    return true;
  }

  bool empty() const { return size() == 0; }
  bool full() const {
    sadsl::sim::detail::run_context* run = sadsl::sim::detail::concurrent_run();
    if (run == nullptr) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    run->check_aborted();
    return is_full_locked();
  }
  unsigned size() const {
    sadsl::sim::detail::run_context* run = sadsl::sim::detail::concurrent_run();
    if (run == nullptr) return static_cast<unsigned>(size_.load());
    std::lock_guard<std::mutex> lock(mutex_);
    run->check_aborted();
    return static_cast<unsigned>(size_.load());
  }
  // As documented for Vitis C simulation: INT_MAX when unbounded; DEPTH bounds concurrent runs.
  unsigned capacity() const {
    return depth() > 0 && sadsl::sim::detail::concurrent_run() != nullptr ? static_cast<unsigned>(depth())
                                                                          : static_cast<unsigned>(INT_MAX);
  }

 protected:
  stream(const char* name, int depth) : stream_core(name, depth) {}

 private:
  bool is_full_locked() const { return depth() > 0 && size_ >= static_cast<std::size_t>(depth()); }
  void take(T& v) {
    buffer_.pop_into(v);
    add_size(-1);
    count_read();
  }

  sadsl::sim::detail::ring_buffer<T> buffer_;
};

template <class T, int DEPTH>
class stream : public stream<T, 0> {
  static_assert(DEPTH > 0, "hls::stream depth must be positive");

 public:
  stream() : stream<T, 0>(nullptr, DEPTH) {}
  explicit stream(const char* name) : stream<T, 0>(name, DEPTH) {}
  explicit stream(const std::string& name) : stream<T, 0>(name.c_str(), DEPTH) {}
};

}  // namespace hls

#endif  // SADSL_SIM_HLS_STREAM_H
