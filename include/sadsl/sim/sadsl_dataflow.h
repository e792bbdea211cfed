// sadsl simulation headers: the runner that generated testbenches use to simulate a dataflow
// region, i.e. processes (module instances) connected by hls::streams, in one of two modes chosen
// at run time:
//   sequential - the processes run one after the other on the calling thread, in the order they
//                were added, over unbounded FIFOs (what Vitis C simulation does);
//   concurrent - every process runs on its own thread; a FIFO holds at most its DEPTH tokens, so
//                writers block on full FIFOs and readers on empty ones, as in hardware. A run in
//                which every unfinished process waits on a stream is reported as a deadlock.
// This header is a sadsl extension: generated code includes it only under #ifdef SADSL_SIM (or in
// testbench files that are not synthesized).
//
//   sadsl::sim::dataflow region;
//   region.add("A_IO_L2_in_0", [&] { A_IO_L2_in(fifo_A_in, fifo_A_PE_0_0); });
//   region.add("PE_0_0", [&] { PE(fifo_A_PE_0_0, fifo_C_out); });
//   sadsl::sim::run_result r = region.run(sadsl::sim::parse_mode(argv[1]));
//   if (!r.ok()) { std::fprintf(stderr, "%s\n", r.message.c_str()); return 1; }
#ifndef SADSL_SIM_DATAFLOW_H
#define SADSL_SIM_DATAFLOW_H

#include <chrono>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "hls_stream.h"

namespace sadsl {
namespace sim {

enum class mode { sequential, concurrent };

// "sequential" or "concurrent"; anything else throws std::invalid_argument.
inline mode parse_mode(const std::string& text) {
  if (text == "sequential") return mode::sequential;
  if (text == "concurrent") return mode::concurrent;
  throw std::invalid_argument("sadsl::sim: unknown simulation mode '" + text + "' (sequential or concurrent)");
}

enum class run_status {
  ok,          // every process returned
  deadlock,    // concurrent: every unfinished process waits on a stream
  empty_read,  // sequential: a process read an empty stream
  stall,       // concurrent, with run_options::stall_timeout: no token moved for that long
  error        // a process threw an exception
};

inline const char* to_string(run_status s) {
  switch (s) {
    case run_status::ok: return "ok";
    case run_status::deadlock: return "deadlock";
    case run_status::empty_read: return "empty_read";
    case run_status::stall: return "stall";
    case run_status::error: return "error";
  }
  return "?";
}

struct run_result {
  run_status status = run_status::ok;
  // Empty when ok; otherwise one line, e.g.
  // "deadlock: PE_0_1 waits to read fifo_A_PE_0_1 (empty); A_IO_L2_in_0 waits to write fifo_A_PE_0_0 (full, depth 2)"
  std::string message;
  // Every stream that was alive during the run (also those created and destroyed in it), in creation
  // order, with the tokens written and read during this run and the tokens left at its end.
  std::vector<stream_stats> streams;

  bool ok() const { return status == run_status::ok; }
  // The stream of that name, or null (the first one if names repeat).
  const stream_stats* find_stream(const std::string& name) const {
    for (const stream_stats& s : streams)
      if (s.name == name) return &s;
    return nullptr;
  }
  // Stream name -> tokens written during the run (streams of the same name are added up).
  std::map<std::string, std::uint64_t> token_counts() const {
    std::map<std::string, std::uint64_t> counts;
    for (const stream_stats& s : streams) counts[s.name] += s.written;
    return counts;
  }
};

struct run_options {
  // Concurrent runs only; zero (the default) disables it. Processes that poll streams with
  // read_nb/empty() never count as blocked, so a network of them can livelock without being a
  // deadlock; with a timeout, a run in which no token moves for that long stops as a stall.
  std::chrono::milliseconds stall_timeout{0};
};

// Calls the callable `f` points to: dataflow::add(name, &invoke_process<F>, &f) adds a process
// that runs a callable the caller keeps alive until the run.
template <class F>
void invoke_process(void* f) {
  (*static_cast<F*>(f))();
}

class dataflow {
 public:
  // Adds a process; `body` runs it to completion (it usually calls one generated module function).
  dataflow& add(std::string name, std::function<void()> body) {
    processes_.push_back(entry{std::move(name), std::move(body)});
    return *this;
  }
  // Adds a process given as a function and its argument, as generated code does (through
  // invoke_process): a lambda per call site converted to std::function would instantiate that
  // machinery once per process, which doubles the time g++ takes on a generated design.
  dataflow& add(std::string name, void (*body)(void*), void* argument) {
    processes_.push_back(entry{std::move(name), [body, argument] { body(argument); }});
    return *this;
  }
  std::size_t size() const { return processes_.size(); }

  // Runs every process once. Failures are reported in the result, not thrown; only misuse (a run
  // started while another is in progress) throws std::logic_error. A dataflow may be run again.
  run_result run(mode m, const run_options& options = run_options()) const {
    detail::globals& g = detail::globals::get();
    if (g.run_active.exchange(true)) throw std::logic_error("sadsl::sim: a dataflow run is already in progress");
    start_recording();
    run_result result;
    try {
      result = m == mode::sequential ? run_sequential() : run_concurrent(options);
    } catch (...) {
      finish_recording();
      g.run_active.store(false);
      throw;
    }
    result.streams = finish_recording();
    g.run_active.store(false);
    return result;
  }

 private:
  struct entry {
    std::string name;
    std::function<void()> body;
  };

  // Process states live in the run; the thread-local pointer tells streams which process calls them.
  std::vector<std::unique_ptr<detail::process_state>> make_states() const {
    std::vector<std::unique_ptr<detail::process_state>> states;
    for (const entry& e : processes_) {
      states.emplace_back(new detail::process_state());
      states.back()->name = e.name;
    }
    return states;
  }

  static std::string failure_message(const std::string& process, std::exception_ptr error) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      return "error: " + process + " threw: " + e.what();
    } catch (...) {
      return "error: " + process + " threw a non-standard exception";
    }
  }

  run_result run_sequential() const {
    run_result result;
    std::vector<std::unique_ptr<detail::process_state>> states = make_states();
    for (std::size_t i = 0; i < processes_.size() && result.ok(); ++i) {
      detail::current_process() = states[i].get();
      try {
        processes_[i].body();
      } catch (const empty_read_error& e) {
        result.status = run_status::empty_read;
        result.message = e.what();
      } catch (...) {
        result.status = run_status::error;
        result.message = failure_message(processes_[i].name, std::current_exception());
      }
      detail::current_process() = nullptr;
    }
    return result;
  }

  run_result run_concurrent(const run_options& options) const {
    std::vector<std::unique_ptr<detail::process_state>> states = make_states();
    std::vector<detail::process_state*> raw;
    for (auto& s : states) raw.push_back(s.get());
    detail::run_context run(raw);
    detail::globals& g = detail::globals::get();
    g.concurrent.store(&run, std::memory_order_release);

    std::vector<std::thread> threads;
    threads.reserve(processes_.size());
    for (std::size_t i = 0; i < processes_.size(); ++i) {
      detail::process_state* state = states[i].get();
      const entry* e = &processes_[i];
      try {
        threads.emplace_back([&run, state, e] {
        detail::current_process() = state;
        try {
          e->body();
        } catch (const detail::run_aborted&) {
          // The run was stopped elsewhere; the reason is already recorded.
        } catch (...) {
          run.fail(failure_message(e->name, std::current_exception()));
        }
        detail::current_process() = nullptr;
        run.finished(state);
        });
      } catch (const std::system_error& err) {
        // Out of threads: stop the run; processes never started keep it from looking finished.
        run.fail("error: cannot start a thread for " + e->name + ": " + err.what());
        break;
      }
    }

    wait_until_over(run, options.stall_timeout);
    bool stopped;
    {
      std::lock_guard<std::mutex> lock(run.mutex());
      stopped = run.aborted();
    }
    if (stopped) wake_all_streams();
    for (std::thread& t : threads) t.join();
    g.concurrent.store(nullptr, std::memory_order_release);

    run_result result;
    std::lock_guard<std::mutex> lock(run.mutex());
    switch (run.state_locked()) {
      case detail::run_state::running:
      case detail::run_state::done: result.status = run_status::ok; break;
      case detail::run_state::deadlock: result.status = run_status::deadlock; break;
      case detail::run_state::stall: result.status = run_status::stall; break;
      case detail::run_state::failed: result.status = run_status::error; break;
    }
    result.message = run.message_locked();
    return result;
  }

  static void wait_until_over(detail::run_context& run, std::chrono::milliseconds stall_timeout) {
    std::unique_lock<std::mutex> lock(run.mutex());
    if (stall_timeout.count() <= 0) {
      run.changed().wait(lock, [&run] { return run.over_locked(); });
      return;
    }
    // Watchdog: sample the token counters a few times per timeout; no change for a whole timeout
    // is a stall. The registry is read without holding the run's mutex (locking order).
    const std::chrono::milliseconds slice = std::max(std::chrono::milliseconds(1), stall_timeout / 8);
    std::uint64_t last_tokens = ~std::uint64_t(0);
    std::chrono::steady_clock::time_point last_change = std::chrono::steady_clock::now();
    while (!run.over_locked()) {
      run.changed().wait_for(lock, slice);
      if (run.over_locked()) return;
      lock.unlock();
      const std::uint64_t tokens = total_tokens();
      const std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now();
      if (tokens != last_tokens) {
        last_tokens = tokens;
        last_change = now;
      } else if (now - last_change >= stall_timeout) {
        run.stall("stall: no token moved for " + std::to_string(stall_timeout.count()) + " ms");
      }
      lock.lock();
    }
  }

  static std::uint64_t total_tokens() {
    detail::globals& g = detail::globals::get();
    std::lock_guard<std::mutex> lock(g.registry_mutex);
    std::uint64_t total = 0;
    for (detail::stream_core* s = g.first; s != nullptr; s = s->next_registered())
      total += s->tokens_written() + s->tokens_read();
    return total;
  }

  static void wake_all_streams() {
    detail::globals& g = detail::globals::get();
    std::lock_guard<std::mutex> lock(g.registry_mutex);
    for (detail::stream_core* s = g.first; s != nullptr; s = s->next_registered()) s->wake_all();
  }

  static void start_recording() {
    detail::globals& g = detail::globals::get();
    std::lock_guard<std::mutex> lock(g.registry_mutex);
    g.recording = true;
    g.retired.clear();
    for (detail::stream_core* s = g.first; s != nullptr; s = s->next_registered()) s->start_run_locked();
  }

  static std::vector<stream_stats> finish_recording() {
    detail::globals& g = detail::globals::get();
    std::lock_guard<std::mutex> lock(g.registry_mutex);
    std::vector<stream_stats> all;
    all.swap(g.retired);
    for (detail::stream_core* s = g.first; s != nullptr; s = s->next_registered())
      all.push_back(s->stats_since_run_start());
    g.recording = false;
    std::sort(all.begin(), all.end(), [](const stream_stats& a, const stream_stats& b) { return a.id < b.id; });
    return all;
  }

  std::vector<entry> processes_;
};

}  // namespace sim
}  // namespace sadsl

#endif  // SADSL_SIM_DATAFLOW_H
