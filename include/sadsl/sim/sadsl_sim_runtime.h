// sadsl simulation headers: the state shared by hls::stream (hls_stream.h) and the dataflow runner
// (sadsl_dataflow.h): the registry of live streams, the processes of a run, and the bookkeeping
// that detects deadlocks in concurrent runs.
//
// Locking order, never reversed: registry mutex -> a stream's mutex -> the run's mutex.
#ifndef SADSL_SIM_RUNTIME_H
#define SADSL_SIM_RUNTIME_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

// Microseconds a blocked stream operation polls before it sleeps (concurrent runs); 0: never.
#ifndef SADSL_SIM_SPIN_US
#define SADSL_SIM_SPIN_US 100
#endif

namespace sadsl {
namespace sim {

// A read of an empty stream outside a concurrent run (sequential mode, or code outside any run):
// the value Vitis' C simulation would read does not exist, so the simulation fails here.
class empty_read_error : public std::runtime_error {
 public:
  empty_read_error(const std::string& message, const std::string& stream, const std::string& process)
      : std::runtime_error(message), stream_(stream), process_(process) {}
  const std::string& stream() const { return stream_; }
  // Empty when the read happened outside any process.
  const std::string& process() const { return process_; }

 private:
  std::string stream_;
  std::string process_;
};

// Tokens that went through one stream: since its creation (list_streams) or during a run
// (run_result::streams).
struct stream_stats {
  std::string name;
  int depth;               // the DEPTH template argument; 0 when none was given
  std::uint64_t written;   // tokens written
  std::uint64_t read;      // tokens read
  std::size_t size;        // tokens held at the end
  std::uint64_t id;        // creation order
};

namespace detail {

class stream_core;

// Thrown inside the processes of a concurrent run to unwind them once the run is stopped (deadlock,
// stall or a failed process). Deliberately not a std::exception, so that process code catching
// std::exception does not swallow it.
struct run_aborted {};

struct process_state {
  std::string name;
  // The fields below are guarded by the run's mutex.
  bool blocked = false;
  bool finished = false;
  bool waits_to_write = false;
  const std::string* waits_on = nullptr;  // the stream's name; the stream outlives the wait
  int waits_on_depth = 0;
};

// The process the calling thread runs for the dataflow runner; null outside processes.
inline process_state*& current_process() {
  static thread_local process_state* process = nullptr;
  return process;
}

enum class run_state { running, done, deadlock, stall, failed };

// One concurrent run: counts live and blocked processes. All live processes blocked on streams
// means no token can ever move again (only processes move tokens during a run): a deadlock.
class run_context {
 public:
  explicit run_context(std::vector<process_state*> processes)
      : processes_(std::move(processes)), live_(static_cast<int>(processes_.size())) {}

  bool aborted() const { return aborted_.load(std::memory_order_acquire); }
  void check_aborted() const {
    if (aborted()) throw run_aborted();
  }

  // The calling process is about to wait on `stream`; throws run_aborted if the run is over or if
  // this wait completes a deadlock.
  void block(process_state* p, const std::string& stream, bool write, int depth) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (aborted()) throw run_aborted();
    p->blocked = true;
    p->waits_to_write = write;
    p->waits_on = &stream;
    p->waits_on_depth = depth;
    ++blocked_;
    if (blocked_ == live_) {
      stop_locked(run_state::deadlock, "deadlock: " + waits_locked());
      throw run_aborted();
    }
  }

  // Called by the process that made progress possible for p (while holding the stream's mutex), so
  // p stops counting as blocked before it even wakes up.
  void unblock(process_state* p) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (p->blocked) {
      p->blocked = false;
      --blocked_;
    }
  }

  void finished(process_state* p) {
    std::lock_guard<std::mutex> lock(mutex_);
    p->finished = true;
    if (p->blocked) {
      p->blocked = false;
      --blocked_;
    }
    --live_;
    if (live_ > 0 && blocked_ == live_) stop_locked(run_state::deadlock, "deadlock: " + waits_locked());
    changed_.notify_all();
  }

  void fail(const std::string& message) {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_locked(run_state::failed, message);
  }

  void stall(const std::string& message) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string running;
    for (process_state* p : processes_)
      if (!p->finished && !p->blocked) running += (running.empty() ? "" : ", ") + p->name;
    const std::string waits = waits_locked();
    stop_locked(run_state::stall, message + (waits.empty() ? "" : "; " + waits) + "; running: " + running);
  }

  std::mutex& mutex() { return mutex_; }
  std::condition_variable& changed() { return changed_; }
  // Guarded by mutex().
  bool over_locked() const { return live_ == 0 || aborted(); }
  run_state state_locked() const { return state_; }
  const std::string& message_locked() const { return message_; }

 private:
  // "A waits to read s (empty); B waits to write t (full, depth 2)" in the order processes were added.
  std::string waits_locked() const {
    std::string text;
    for (process_state* p : processes_) {
      if (!p->blocked) continue;
      if (!text.empty()) text += "; ";
      text += p->name + (p->waits_to_write ? " waits to write " : " waits to read ") + *p->waits_on;
      text += p->waits_to_write ? " (full, depth " + std::to_string(p->waits_on_depth) + ")" : std::string(" (empty)");
    }
    return text;
  }
  void stop_locked(run_state state, const std::string& message) {
    if (aborted()) return;  // the first reason to stop is the one reported
    state_ = state;
    message_ = message;
    aborted_.store(true, std::memory_order_release);
    changed_.notify_all();
  }

  std::vector<process_state*> processes_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int live_;
  int blocked_ = 0;
  std::atomic<bool> aborted_{false};
  run_state state_ = run_state::running;
  std::string message_;
};

// Process-wide state. A function-local static, so it is built before the first stream (even a
// global one) and outlives every stream.
struct globals {
  std::mutex registry_mutex;
  stream_core* first = nullptr;  // live streams in creation order (intrusive list)
  stream_core* last = nullptr;
  std::uint64_t next_id = 0;
  bool recording = false;                // a run is collecting per-stream counts
  std::vector<stream_stats> retired;     // streams destroyed while recording
  std::atomic<run_context*> concurrent{nullptr};  // set for the duration of a concurrent run
  std::atomic<bool> run_active{false};

  static globals& get() {
    static globals g;
    return g;
  }
};

inline run_context* concurrent_run() { return globals::get().concurrent.load(std::memory_order_acquire); }

// The part of hls::stream that does not depend on the element type: name, depth, counters,
// registration and the blocking protocol of concurrent runs.
class stream_core {
 public:
  stream_core(const char* name, int depth) : depth_(depth) {
    globals& g = globals::get();
    std::lock_guard<std::mutex> lock(g.registry_mutex);
    id_ = g.next_id++;
    name_ = name != nullptr ? std::string(name) : "stream_" + std::to_string(id_);
    prev_ = g.last;
    (g.last != nullptr ? g.last->next_ : g.first) = this;
    g.last = this;
  }
  stream_core(const stream_core&) = delete;
  stream_core& operator=(const stream_core&) = delete;
  ~stream_core() {
    globals& g = globals::get();
    std::lock_guard<std::mutex> lock(g.registry_mutex);
    if (g.recording) g.retired.push_back(stats_since_run_start());
    (prev_ != nullptr ? prev_->next_ : g.first) = next_;
    (next_ != nullptr ? next_->prev_ : g.last) = prev_;
  }

  const std::string& name() const { return name_; }
  // sadsl extension (guard with #ifdef SADSL_SIM): names streams that cannot take a constructor
  // argument, such as the elements of an array. Call it before a run, not during one.
  void set_name(const std::string& name) { name_ = name; }
  int depth() const { return depth_; }
  std::uint64_t tokens_written() const { return written_.load(std::memory_order_relaxed); }
  std::uint64_t tokens_read() const { return read_.load(std::memory_order_relaxed); }
  std::uint64_t id() const { return id_; }

  // Registry helpers for the runner; call with the registry mutex held and no run in progress.
  stream_core* next_registered() const { return next_; }
  void start_run_locked() {
    written_at_start_ = tokens_written();
    read_at_start_ = tokens_read();
    reader_waiting_ = writer_waiting_ = false;
  }
  stream_stats stats_since_run_start() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stream_stats{name_, depth_, tokens_written() - written_at_start_, tokens_read() - read_at_start_, size_.load(), id_};
  }
  stream_stats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stream_stats{name_, depth_, tokens_written(), tokens_read(), size_.load(), id_};
  }
  // Wakes whoever waits on this stream so that it notices the run was stopped.
  void wake_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    data_ready_.notify_all();
    space_ready_.notify_all();
  }

 protected:
  void count_write() { written_.store(written_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
  void count_read() { read_.store(read_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }

  [[noreturn]] void throw_empty_read() const {
    const process_state* p = current_process();
    const std::string counts = " (empty; " + std::to_string(tokens_written()) + " written, " +
                               std::to_string(tokens_read()) + " read)";
    const std::string message = p != nullptr ? "empty read: " + p->name + " reads " + name_ + counts
                                             : "empty read: " + name_ + " read outside any process" + counts;
    throw empty_read_error(message, name_, p != nullptr ? p->name : std::string());
  }

  static process_state* calling_process(const std::string& stream) {
    process_state* p = current_process();
    if (p == nullptr)
      throw std::logic_error("sadsl::sim: stream " + stream + " used outside the processes of a concurrent run");
    return p;
  }

  // Before sleeping on a condition variable, poll for a short time without the lock: a peer running
  // on another core usually moves a token within microseconds, while a futex sleep/wake pair costs
  // tens of microseconds on virtual machines. The bound is in time, not rounds, because a yield on a
  // loaded machine can take milliseconds. Returns with the lock held again.
  template <class Ready>
  void spin_until(std::unique_lock<std::mutex>& lock, run_context* run, Ready ready) {
    if (SADSL_SIM_SPIN_US <= 0) return;
    lock.unlock();
    const std::chrono::steady_clock::time_point end =
        std::chrono::steady_clock::now() + std::chrono::microseconds(SADSL_SIM_SPIN_US);
    for (unsigned i = 1; !ready() && !run->aborted(); ++i) {
      if (i % 16 == 0) {
        if (std::chrono::steady_clock::now() >= end) break;
        std::this_thread::yield();  // let the peer run if it shares this core
      }
    }
    lock.lock();
  }

  // Concurrent mode, called with mutex_ held: wait until a token is there.
  void wait_for_data(std::unique_lock<std::mutex>& lock, run_context* run) {
    if (size_ == 0) spin_until(lock, run, [this] { return size_.load(std::memory_order_acquire) != 0; });
    while (size_ == 0) {
      if (!reader_waiting_) {
        process_state* p = calling_process(name_);
        run->block(p, name_, false, depth_);
        reader_waiting_ = true;
        waiting_reader_ = p;
      }
      data_ready_.wait(lock);
      run->check_aborted();
    }
  }
  // Concurrent mode, called with mutex_ held: wait until the FIFO has room (a DEPTH bound).
  void wait_for_space(std::unique_lock<std::mutex>& lock, run_context* run) {
    if (depth_ > 0 && size_ >= static_cast<std::size_t>(depth_))
      spin_until(lock, run, [this] { return size_.load(std::memory_order_acquire) < static_cast<std::size_t>(depth_); });
    while (depth_ > 0 && size_ >= static_cast<std::size_t>(depth_)) {
      if (!writer_waiting_) {
        process_state* p = calling_process(name_);
        run->block(p, name_, true, depth_);
        writer_waiting_ = true;
        waiting_writer_ = p;
      }
      space_ready_.wait(lock);
      run->check_aborted();
    }
  }
  // Concurrent mode, called with mutex_ held after a write or a read.
  void wake_reader(run_context* run) {
    if (!reader_waiting_) return;
    reader_waiting_ = false;
    run->unblock(waiting_reader_);
    data_ready_.notify_one();
  }
  void wake_writer(run_context* run) {
    if (!writer_waiting_) return;
    writer_waiting_ = false;
    run->unblock(waiting_writer_);
    space_ready_.notify_one();
  }

  // Tokens held. Changed under mutex_ during concurrent runs; atomic only so that spin_until may
  // poll it without the lock.
  std::atomic<std::size_t> size_{0};
  void add_size(std::ptrdiff_t d) { size_.store(size_.load(std::memory_order_relaxed) + d, std::memory_order_release); }
  mutable std::mutex mutex_;

 private:
  std::string name_;
  int depth_;
  std::uint64_t id_ = 0;
  std::atomic<std::uint64_t> written_{0};
  std::atomic<std::uint64_t> read_{0};
  std::uint64_t written_at_start_ = 0;
  std::uint64_t read_at_start_ = 0;
  std::condition_variable data_ready_;
  std::condition_variable space_ready_;
  bool reader_waiting_ = false;  // a reader is registered as blocked on this stream
  bool writer_waiting_ = false;
  process_state* waiting_reader_ = nullptr;
  process_state* waiting_writer_ = nullptr;
  stream_core* prev_ = nullptr;
  stream_core* next_ = nullptr;
};

}  // namespace detail

// Every live stream with its counts since creation, in creation order.
inline std::vector<stream_stats> list_streams() {
  detail::globals& g = detail::globals::get();
  std::lock_guard<std::mutex> lock(g.registry_mutex);
  std::vector<stream_stats> all;
  for (detail::stream_core* s = g.first; s != nullptr; s = s->next_registered()) all.push_back(s->stats());
  return all;
}

}  // namespace sim
}  // namespace sadsl

#endif  // SADSL_SIM_RUNTIME_H
