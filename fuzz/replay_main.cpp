// The replay driver: runs a fuzz target (LLVMFuzzerTestOneInput) without libFuzzer, so that CI
// fuzzes with g++ under ASan+UBSan. It replays the given corpus files and folders, then makes
// deterministic mutations of them (bit flips, byte insertion and deletion, repeated chunks,
// splices, dictionary tokens, interesting numbers) from a fixed seed, for a number of runs or
// seconds. The options are libFuzzer's spelling, so scripts/fuzz.sh drives both alike:
//
//   fuzz_<target> [-runs=N] [-max_total_time=S] [-seed=N] [-dict=FILE] [-max_len=N]
//                 [-timeout=S] [-artifact_prefix=DIR/] [FILE|FOLDER]...
//
// A crash (sanitizer report, uncaught exception, failed check) or an input that runs longer than
// -timeout writes the input to <artifact_prefix>crash-<hash> (timeout-<hash>) before dying.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "mutator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace {

using sadsl::fuzz::bytes;

struct options {
  std::uint64_t runs = 0;
  double seconds = 0;
  std::uint64_t seed = 1;
  std::size_t max_len = 0;  // 0: twice the largest corpus input, at least 4096
  unsigned timeout = 20;
  std::string artifact_prefix = "./";
  std::string dict;
  std::vector<std::string> inputs;
};

// The input being run, for the crash handlers (written before the run, read only when dying).
const bytes* current = nullptr;
std::string artifact_prefix = "./";
std::atomic<std::uint64_t> executions{0};

// Writes the current input to <prefix><kind>-<hash> with plain system calls, no stdio (a
// sanitizer may report from a signal handler).
void save_current(const char* kind) {
  if (!current) return;
  std::string name = artifact_prefix + kind + "-" + sadsl::fuzz::hex(sadsl::fuzz::hash(*current));
  int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  bool saved = fd >= 0 && ::write(fd, current->data(), current->size()) == static_cast<ssize_t>(current->size());
  if (fd >= 0) ::close(fd);
  std::string note = std::string("\n== fuzz: ") + kind + "; the input (" + std::to_string(current->size()) + " bytes) " +
                     (saved ? "is in " : "could not be written to ") + name + "\n";
  [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, note.data(), note.size());
}

void on_death() { save_current("crash"); }

// abort() (a failed fuzz_check, std::terminate) saves the input, then dies as it would have.
void on_abort(int signal) {
  save_current("crash");
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void on_terminate() {
  std::fprintf(stderr, "== fuzz: uncaught exception (not a sadsl::error)\n");
  try {
    if (auto e = std::current_exception()) std::rethrow_exception(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "== fuzz: %s\n", e.what());
  } catch (...) {
  }
  save_current("crash");
  std::signal(SIGABRT, SIG_DFL);
  std::abort();
}

// Ends the process when one input runs longer than `seconds`.
void watchdog(unsigned seconds) {
  std::uint64_t seen = executions.load();
  auto since = std::chrono::steady_clock::now();
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::uint64_t now = executions.load();
    if (now != seen) {
      seen = now;
      since = std::chrono::steady_clock::now();
    } else if (current && std::chrono::steady_clock::now() - since > std::chrono::seconds(seconds)) {
      save_current("timeout");
      std::_Exit(1);
    }
  }
}

void run_one(const bytes& input) {
  current = &input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  current = nullptr;
  executions.fetch_add(1, std::memory_order_relaxed);
}

bool starts(const std::string& arg, const char* flag, std::string& value) {
  std::size_t n = std::strlen(flag);
  if (arg.compare(0, n, flag) != 0) return false;
  value = arg.substr(n);
  return true;
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], v;
    if (starts(arg, "-runs=", v)) o.runs = std::strtoull(v.c_str(), nullptr, 10);
    else if (starts(arg, "-max_total_time=", v)) o.seconds = std::strtod(v.c_str(), nullptr);
    else if (starts(arg, "-seed=", v)) o.seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (starts(arg, "-max_len=", v)) o.max_len = std::strtoull(v.c_str(), nullptr, 10);
    else if (starts(arg, "-timeout=", v)) o.timeout = static_cast<unsigned>(std::strtoul(v.c_str(), nullptr, 10));
    else if (starts(arg, "-artifact_prefix=", v)) o.artifact_prefix = v;
    else if (starts(arg, "-dict=", v)) o.dict = v;
    else if (arg.starts_with("-")) std::fprintf(stderr, "fuzz: ignoring %s (a libFuzzer option this driver lacks)\n", arg.c_str());
    else o.inputs.push_back(arg);
  }
  return o;
}

// Mutates the corpus until the runs or the seconds are used up; returns the mutations run.
std::uint64_t mutate_for(const options& o, const std::vector<bytes>& corpus, const sadsl::fuzz::mutator_settings& settings) {
  sadsl::fuzz::mutator m(settings, corpus, o.seed);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.seconds);
  std::uint64_t done = 0;
  while ((o.runs == 0 || done < o.runs) && (o.seconds <= 0 || std::chrono::steady_clock::now() < deadline)) {
    bytes input = m.next();
    run_one(input);
    ++done;
  }
  return done;
}

}  // namespace

int main(int argc, char** argv) {
  options o = parse(argc, argv);
  artifact_prefix = o.artifact_prefix;
  std::set_terminate(on_terminate);
  std::signal(SIGABRT, on_abort);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(on_death);
  std::thread(watchdog, std::max(1u, o.timeout)).detach();

  std::vector<bytes> corpus = sadsl::fuzz::read_corpus(o.inputs);
  auto start = std::chrono::steady_clock::now();
  for (const bytes& input : corpus) run_one(input);
  double replay = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "fuzz: replayed %zu inputs in %.2f s\n", corpus.size(), replay);
  if (o.runs == 0 && o.seconds <= 0) return 0;

  sadsl::fuzz::mutator_settings settings;
  settings.dictionary = sadsl::fuzz::read_dictionary(o.dict);
  std::size_t largest = 0;
  for (const bytes& input : corpus) largest = std::max(largest, input.size());
  settings.max_len = o.max_len ? o.max_len : std::max<std::size_t>(4096, 2 * largest);
  start = std::chrono::steady_clock::now();
  std::uint64_t mutations = mutate_for(o, corpus, settings);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "fuzz: %llu mutations (seed %llu) in %.1f s: %.0f executions/s\n",
               static_cast<unsigned long long>(mutations), static_cast<unsigned long long>(o.seed), seconds,
               seconds > 0 ? static_cast<double>(mutations) / seconds : 0.0);
  return 0;
}
