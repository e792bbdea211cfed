// Run-time compilation of models: write the source, call the system compiler, dlopen; cached
// by a hash of source, compiler and flags, so each model is compiled once per cache directory.
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>
#include <thread>

#include "evaluation_code.hpp"
#include "hash.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/compile.hpp"
#include "sadsl/model/files.hpp"

extern char** environ;

namespace sadsl::model {
namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

bool is_executable(const std::filesystem::path& file) {
  return ::access(file.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(file);
}

std::string search_path(const std::string& program) {
  std::stringstream dirs(env("PATH"));
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && is_executable(std::filesystem::path(dir) / program)) return (std::filesystem::path(dir) / program).string();
  return "";
}

constexpr int compiler_stopped = -2;

// Runs the compiler without a shell (no quoting issues); its output goes to `log`. It runs in a
// process group of its own, so that stopping it (stop flag, deadline) kills the driver and the
// compiler processes it started, and nothing else.
int run_compiler(const std::vector<std::string>& argv, const std::filesystem::path& log, const jit_options& options) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) return -1;
  int status = 0;
  for (;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return -1;
    bool stop = (options.stop && options.stop->load()) ||
                (options.deadline && std::chrono::steady_clock::now() >= *options.deadline);
    if (stop) {
      ::kill(-pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return compiler_stopped;
    }
    ::usleep(2000);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string read_text(const std::filesystem::path& file, std::size_t limit) {
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.size() > limit ? text.substr(0, limit) + "..." : text;
}


// A name unique to this process and call, so concurrent compilations (other processes, or other
// threads of this one) never share temporary files.
std::filesystem::path temporary_name(const std::filesystem::path& final_path) {
  static std::atomic<unsigned> counter{0};
  return final_path.string() + ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

compiled_model load(const std::filesystem::path& library, const std::string& hash, const std::string& model_name) {
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw error("cannot load compiled model \"" + model_name + "\": " + ::dlerror());
  std::shared_ptr<void> owner(handle, [](void* h) { ::dlclose(h); });
  using abi_entry = const void* (*)();
  auto entry = reinterpret_cast<abi_entry>(::dlsym(handle, ("sadsl_model_" + hash + "_abi").c_str()));
  if (!entry) throw error("compiled model \"" + model_name + "\" in " + library.string() + " lacks its entry point");
  const auto* abi = static_cast<const compiled_abi*>(entry());
  if (abi->version != compiled_abi::current_version)
    throw error("compiled model \"" + model_name + "\" has ABI version " + std::to_string(abi->version));
  return compiled_model(abi, std::move(owner));
}

}  // namespace

std::filesystem::path jit_cache_dir(const jit_options& options) {
  std::filesystem::path dir = options.cache_dir;
  if (dir.empty() && !env("SADSL_CACHE_DIR").empty()) dir = env("SADSL_CACHE_DIR");
  if (dir.empty() && !env("XDG_CACHE_HOME").empty()) dir = std::filesystem::path(env("XDG_CACHE_HOME")) / "sadsl";
  if (dir.empty() && !env("HOME").empty()) dir = std::filesystem::path(env("HOME")) / ".cache" / "sadsl";
  if (dir.empty()) dir = std::filesystem::temp_directory_path() / "sadsl-cache";
  std::error_code ignored;
  std::filesystem::create_directories(dir, ignored);
  if (!std::filesystem::is_directory(dir)) throw error("cannot create the model cache directory " + dir.string());
  return dir;
}

std::string find_cxx_compiler(const jit_options& options) {
  std::string chosen = !options.compiler.empty() ? options.compiler : env("SADSL_CXX");
  if (!chosen.empty()) {
    std::string found = chosen.find('/') == std::string::npos ? search_path(chosen) : (is_executable(chosen) ? chosen : "");
    if (found.empty()) throw error("C++ compiler \"" + chosen + "\" not found");
    return found;
  }
  for (const char* candidate : {"c++", "g++", "clang++"})
    if (std::string found = search_path(candidate); !found.empty()) return found;
  throw error("no C++ compiler found (set SADSL_CXX or put c++, g++ or clang++ on PATH)");
}

namespace {

// Moves `staged` to `file` in one step, so readers see no file or a whole one.
void publish(const std::filesystem::path& staged, const std::filesystem::path& file) {
  std::error_code failed;
  std::filesystem::rename(staged, file, failed);
  if (!failed) return;
  std::error_code ignored;
  std::filesystem::remove(staged, ignored);
  throw error("cannot write " + file.string() + ": " + failed.message());
}

// GCC passes that cost a quarter of a model's compile time and give its straight-line vector code
// nothing (MM's 18 models with GCC 12: 1.8 -> 1.4 s of CPU, evaluation as fast or faster):
// scheduling after register allocation, partial redundancy elimination (tree and RTL), SLP
// vectorization (the code is vector code already), points-to analysis, value-range propagation,
// the "expensive" RTL optimizations, inlining beyond the helpers marked inline, and cloning the
// evaluation function for the single point's row stride of 0 (with AVX-512 a third of the compile
// time, 0.35 -> 0.25 s for an MM model, batches as fast). Then (2026-11-28, each pass left out
// alone and its compiler instructions counted under valgrind, an AVX-512 MM model): conditional
// constant propagation (-6.5%; the emitter has folded the constants), code hoisting (-2.3%), the
// dominator optimizations (-1.8%), loop vectorization (-2%) and the CSE rerun after loops
// (-1.3%): 12-14% of a model's instructions together, its evaluation as fast, the same values.
const std::vector<std::string>& lean_gcc_flags() {
  static const std::vector<std::string> flags = {
      "-fno-schedule-insns2", "-fno-tree-pre", "-fno-gcse", "-fno-tree-slp-vectorize", "-fno-tree-pta",
      "-fno-tree-vrp", "-fno-expensive-optimizations", "-fno-inline-small-functions", "-fno-ipa-cp-clone",
      "-fno-tree-ccp", "-fno-code-hoisting", "-fno-tree-dominator-opts", "-fno-tree-vectorize",
      "-fno-rerun-cse-after-loop"};
  return flags;
}

// A source built for one evaluation path calls nothing from the C++ runtime (the portable one
// asks for the CPU's features through libgcc and guards a static with libstdc++): linking it
// against the C library and libgcc alone skips reading libstdc++'s and libm's symbol tables,
// 85 -> 37 ms of a model's link (MM's two JIT units: 0.53 -> 0.49 s each, 2026-11-28). A symbol
// the library left undefined would still be resolved at dlopen, from the process's libraries.
const std::vector<std::string>& lean_link_flags() {
  static const std::vector<std::string> flags = {"-nodefaultlibs", "-lc", "-lgcc"};
  return flags;
}

bool builds_one_path(const std::vector<std::string>& flags) {
  return std::any_of(flags.begin(), flags.end(), [](const std::string& f) {
    return f == "-DSADSL_SCALAR_ONLY" || f == "-DSADSL_AVX2_ONLY" || f == "-DSADSL_AVX512_ONLY";
  });
}

// Whether `compiler` is GCC (Clang rejects some of GCC's pass switches): its --version names the
// Free Software Foundation, Clang's names clang. Asked once per compiler and process; a compiler
// that cannot say (it fails, or the run is stopped) is taken for another one.
bool is_gcc(const std::string& compiler, const std::filesystem::path& dir, const jit_options& options) {
  static std::mutex mutex;
  static std::map<std::string, bool> known;
  // Held while asking, so that threads compiling at once ask once (a few milliseconds).
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = known.find(compiler); it != known.end()) return it->second;
  std::filesystem::path log = temporary_name(dir / "compiler-version.log");
  int status = run_compiler({compiler, "--version"}, log, options);
  std::string text = read_text(log, 4000);
  std::error_code ignored;
  std::filesystem::remove(log, ignored);
  if (status == compiler_stopped) return false;
  bool gcc = status == 0 && text.find("Free Software Foundation") != std::string::npos &&
             text.find("clang") == std::string::npos;
  known[compiler] = gcc;
  return gcc;
}

// Runs the compiler on `source_file`; the library appears at `library` only when it succeeded.
// `what` names the source's models in messages (`model "X"`).
void compile(const std::string& compiler, const jit_options& options, const std::filesystem::path& source_file,
             const std::filesystem::path& library, const std::string& what) {
  std::filesystem::path staged = temporary_name(library);
  std::filesystem::path log = temporary_name(library.parent_path() / (library.stem().string() + ".log"));
  std::vector<std::string> argv{compiler};
  argv.insert(argv.end(), options.flags.begin(), options.flags.end());
  bool lean = options.lean_gcc_passes && is_gcc(compiler, library.parent_path(), options);
  if (lean) argv.insert(argv.end(), lean_gcc_flags().begin(), lean_gcc_flags().end());
  argv.insert(argv.end(), {"-o", staged.string(), source_file.string()});
  if (lean && builds_one_path(options.flags)) argv.insert(argv.end(), lean_link_flags().begin(), lean_link_flags().end());
  int status = run_compiler(argv, log, options);
  std::string output = read_text(log, 2000);
  std::error_code ignored;
  std::filesystem::remove(log, ignored);
  if (status == compiler_stopped) {
    std::filesystem::remove(staged, ignored);
    bool interrupted = options.stop && options.stop->load();
    throw error("compiling " + what + " stopped: " + (interrupted ? "interrupted" : "the time budget ran out"));
  }
  if (status != 0) {
    std::filesystem::remove(staged, ignored);
    throw error("compiling " + what + " with " + compiler + " failed (exit " + std::to_string(status) + "): " + output);
  }
  publish(staged, library);
}

// The widest vector path of the generated source this process's machine runs, as the macro that
// builds that path alone: AVX-512 (avx512f), AVX2, or none.
const char* host_path_macro() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) return "-DSADSL_AVX512_ONLY";
  if (__builtin_cpu_supports("avx2")) return "-DSADSL_AVX2_ONLY";
#endif
  return nullptr;
}

std::string quoted_model(const std::string& name) { return "model \"" + name + "\""; }

// A model's cache entry: its library, named by its hash and a hash of the compiler, the flags and
// its own source, whether it was compiled alone or with others.
struct cache_entry {
  std::string hash;
  std::filesystem::path library;
};

// The compiler run's settings, as jit_compile and jit_compile_all make them.
struct compiler_setup {
  jit_options options;
  std::string compiler;
  std::string configuration;  // compiler and flags, part of every cache key
  std::filesystem::path dir;

  explicit compiler_setup(const jit_options& given) : options(given) {
    if (options.host_path_only && !builds_one_path(options.flags) && host_path_macro())
      options.flags.push_back(host_path_macro());
    compiler = find_cxx_compiler(options);
    configuration = compiler;
    for (const std::string& flag : options.flags) configuration += " " + flag;
    if (options.lean_gcc_passes) configuration += " (lean GCC passes and link)";
    dir = jit_cache_dir(options);
  }

  cache_entry entry(const emitted_model& alone) const {
    std::string key = alone.hash + "-" + content_hash(configuration + "\n" + alone.source);
    return {alone.hash, dir / (key + ".so")};
  }
};

bool cached(const std::filesystem::path& file) {
  std::error_code missing;
  return std::filesystem::exists(file, missing);
}

// Makes `entry` name the library `group` (a hard link, or a copy where links are not possible),
// in one step.
void publish_member(const std::filesystem::path& group, const std::filesystem::path& entry) {
  std::filesystem::path staged = temporary_name(entry);
  std::error_code failed;
  std::filesystem::create_hard_link(group, staged, failed);
  if (failed) {
    failed.clear();
    std::filesystem::copy_file(group, staged, failed);
  }
  if (failed) throw error("cannot write " + entry.string() + ": " + failed.message());
  publish(staged, entry);
}

// A group's models in messages: `model "X"` or `models "X", "Y" and "Z"`.
std::string group_names(const std::vector<const design_model*>& models) {
  if (models.size() == 1) return quoted_model(models[0]->name);
  std::string names = "models";
  for (std::size_t m = 0; m < models.size(); ++m)
    names += (m == 0 ? " \"" : m + 1 == models.size() ? " and \"" : ", \"") + models[m]->name + "\"";
  return names;
}

// Compiles `members` (models whose entries are missing) as one translation unit and gives each
// its own cache entry. The group's library has a name of this call's own (another process may be
// compiling the same group) and goes once every entry names it.
void compile_group(const compiler_setup& setup, const std::vector<const design_model*>& members,
                   const std::vector<const evaluation_code*>& codes, const std::vector<cache_entry>& entries) {
  std::string source = "// Generated by sadsl: " + std::to_string(members.size()) + " models compiled together. Do not edit.\n";
  source += emit_models(members, codes).source;
  std::string key = "group-" + content_hash(setup.configuration + "\n" + source);
  std::filesystem::path library = temporary_name(setup.dir / (key + ".so")), source_file = setup.dir / (key + ".cpp");
  write_output_file(source_file, source);
  compile(setup.compiler, setup.options, source_file, library, group_names(members));
  std::error_code ignored;
  try {
    for (const cache_entry& e : entries) publish_member(library, e.library);
  } catch (const error&) {
    std::filesystem::remove(library, ignored);
    throw;
  }
  std::filesystem::remove(library, ignored);
}

}  // namespace

compiled_model jit_compile(const design_model& model, const jit_options& given) {
  return jit_compile(model, evaluation_code_of(model), given);
}

compiled_model jit_compile(const design_model& model, const evaluation_code& code, const jit_options& given) {
  compiler_setup setup(given);
  emitted_model alone = emit_model(model, code);
  cache_entry e = setup.entry(alone);
  if (!cached(e.library)) {
    std::filesystem::path source_file = e.library;
    source_file.replace_extension(".cpp");
    write_output_file(source_file, alone.source);
    compile(setup.compiler, setup.options, source_file, e.library, quoted_model(model.name));
  }
  return load(e.library, e.hash, model.name);
}

std::vector<jit_outcome> jit_compile_all(const std::vector<const design_model*>& models, const jit_options& given,
                                         unsigned threads) {
  std::vector<evaluation_code> codes = evaluation_codes(models, threads);
  return jit_compile_all(models, addresses(codes), given, threads);
}

std::vector<jit_outcome> jit_compile_all(const std::vector<const design_model*>& models,
                                         const std::vector<const evaluation_code*>& codes, const jit_options& given,
                                         unsigned threads) {
  std::vector<jit_outcome> out(models.size());
  std::optional<compiler_setup> setup;
  try {
    setup.emplace(given);
  } catch (const error& e) {
    for (jit_outcome& o : out) o.error = e.what();
    return out;
  }
  // The models to compile, once per hash, with the size of their source (the compile time's proxy).
  std::vector<cache_entry> entries(models.size());
  std::vector<std::string> cores(models.size());
  std::vector<std::size_t> missing, weight(models.size(), 0);
  // The models of one code (two designs may have the same model under two names) are compiled
  // once, and the library is each one's cache entry.
  std::map<std::string, std::vector<std::size_t>> same_code;
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (!codes[m]->error.empty()) {  // a model that cannot be written (jit_compile's error): the others go on
      out[m].error = codes[m]->error;
      continue;
    }
    emitted_model alone = emit_model(*models[m], *codes[m]);
    entries[m] = setup->entry(alone);
    cores[m] = alone.core_hash;
    weight[m] = alone.source.size();
    if (cached(entries[m].library)) continue;
    std::vector<std::size_t>& same = same_code[entries[m].hash];
    if (same.empty()) missing.push_back(m);
    same.push_back(m);
  }
  // Models with one core go together (the core is compiled once; the others add their entry
  // points only); longest first, each to the lightest group (a compiler run has a fixed cost, so
  // one group per thread).
  std::vector<std::vector<std::size_t>> sharing;
  std::vector<std::size_t> sharing_weight;
  std::map<std::string, std::size_t> sharing_of;
  for (std::size_t m : missing) {
    auto [at, fresh] = sharing_of.emplace(cores[m], sharing.size());
    if (fresh) {
      sharing.emplace_back();
      sharing_weight.push_back(weight[m]);
    }
    sharing[at->second].push_back(m);
  }
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::size_t count = std::min<std::size_t>(threads, sharing.size());
  std::vector<std::vector<std::size_t>> groups(count);
  std::vector<std::size_t> load_of(count, 0), order(sharing.size());
  for (std::size_t s = 0; s < order.size(); ++s) order[s] = s;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sharing_weight[a] > sharing_weight[b]; });
  for (std::size_t s : order) {
    std::size_t g = static_cast<std::size_t>(std::min_element(load_of.begin(), load_of.end()) - load_of.begin());
    groups[g].insert(groups[g].end(), sharing[s].begin(), sharing[s].end());
    load_of[g] += sharing_weight[s];
  }
  std::vector<std::string> failed(count);
  auto run = [&](std::size_t g) {
    std::vector<const design_model*> members;
    std::vector<const evaluation_code*> member_codes;
    std::vector<cache_entry> member_entries;
    std::set<std::filesystem::path> published;
    for (std::size_t m : groups[g]) {
      members.push_back(models[m]);
      member_codes.push_back(codes[m]);
      for (std::size_t same : same_code.at(entries[m].hash))
        if (published.insert(entries[same].library).second) member_entries.push_back(entries[same]);
    }
    try {
      compile_group(*setup, members, member_codes, member_entries);
    } catch (const error& e) {
      failed[g] = e.what();
    }
  };
  std::vector<std::thread> helpers;
  std::size_t started = 1;  // groups 1 .. started - 1 run on helper threads, the rest here
  for (; started < count; ++started) {
    try {
      helpers.emplace_back(run, started);
    } catch (const std::system_error&) {
      break;  // no more threads: this one compiles the rest
    }
  }
  if (count > 0) run(0);
  for (std::size_t g = started; g < count; ++g) run(g);
  for (std::thread& t : helpers) t.join();
  std::map<std::string, std::string> why;  // a hash whose group failed: the group's error
  for (std::size_t g = 0; g < count; ++g)
    for (std::size_t m : groups[g])
      if (!failed[g].empty()) why[entries[m].hash] = failed[g];
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (!out[m].error.empty()) continue;
    if (auto w = why.find(entries[m].hash); w != why.end()) {
      out[m].error = w->second;
      continue;
    }
    try {
      out[m].compiled.emplace(load(entries[m].library, entries[m].hash, models[m]->name));
    } catch (const error& e) {
      out[m].error = e.what();
    }
  }
  return out;
}

}  // namespace sadsl::model
