#pragma once
// The model IR as C++: emission of straight-line source (one function computing every metric of
// one point, plus a batch loop), compilation at run time (system compiler + dlopen, cached by
// content hash) and models compiled ahead of time by the CMake helper sadsl_add_model().
#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "sadsl/model/design_model.hpp"

namespace sadsl::model {

/// Evaluates one point in place: inferred parameters are written back into `point`; `out` is a
/// metrics*, `limits` a const device_limits* (void* because generated code is self-contained).
using point_function = void (*)(double* point, void* out, const void* limits);
/// Evaluates `count` points stored row by row, parameter_count values each.
using batch_function = void (*)(std::size_t count, double* points, void* out, const void* limits);

/// What generated code exports (extern "C" sadsl_model_<hash>_abi()). Bump the version when the
/// layout of this struct, of metrics or of device_limits changes.
struct compiled_abi {
  static constexpr unsigned current_version = 2;
  unsigned version;
  unsigned parameter_count;
  const char* model_name;
  const char* model_hash;  ///< model_hash() of the model it was generated from
  point_function evaluate_point;
  batch_function evaluate_batch;
};

struct emit_options {
  /// Add a static initializer that registers the model with the ahead-of-time registry.
  bool register_ahead_of_time = false;
};

/// C++ source for `model`: deterministic (same model, byte-identical text), self-contained
/// (includes only the standard library). Throws sadsl::error if an inferred parameter depends on
/// a parameter after it.
std::string emit_cpp(const design_model& model, const emit_options& options = {});

/// A 16-hex-digit hash of the model's generated evaluation code; identifies compiled code.
std::string model_hash(const design_model& model);

/// emit_cpp and model_hash at once (emission is the costly part, for long models seconds).
/// A model's code is its core (the whole evaluation, which reads the model's tile counts,
/// ceil(I / i_t1) and the like, from the parameters a table of the model names) and entry points
/// that call the core with that table: models that differ only in which tile count goes where (a
/// design's tile orders often do) have the same core, which a translation unit of several models
/// holds once.
struct emitted_model {
  std::string source;
  std::string hash;
  std::string core_hash;  ///< equal for models that share their core
};
emitted_model emit_model(const design_model& model, const emit_options& options = {});

/// Several models as one translation unit (sadsl_add_kernel, jit_compile_all): the helpers once,
/// then each model's core (once, before the first model that calls it) and its code and entry
/// points in namespace sadsl_model_<hash>, the same code as its own source's; models with the same
/// code once. `hashes[i]` is models[i]'s model_hash.
struct emitted_models {
  std::string source;
  std::vector<std::string> hashes;
};
emitted_models emit_models(const std::vector<const design_model*>& models, const emit_options& options = {});

/// A model compiled to machine code, ahead of time or at run time. Keeps the shared library
/// loaded while any copy lives.
class compiled_model {
public:
  compiled_model(const compiled_abi* abi, std::shared_ptr<void> library);
  const compiled_abi& abi() const { return *abi_; }
  /// One point, in place (see point_function). The call is a plain indirect call: no allocation.
  void evaluate(double* point, metrics* out, const device_limits* limits) const {
    abi_->evaluate_point(point, out, limits);
  }
  void evaluate_batch(std::size_t count, double* points, metrics* out, const device_limits* limits) const {
    abi_->evaluate_batch(count, points, out, limits);
  }
  bool is_ahead_of_time() const { return library_ == nullptr; }

private:
  const compiled_abi* abi_;
  std::shared_ptr<void> library_;
};

struct jit_options {
  /// Where sources and shared libraries are cached. Empty: $SADSL_CACHE_DIR, else
  /// $XDG_CACHE_HOME/sadsl, else $HOME/.cache/sadsl, else <temp>/sadsl-cache.
  std::filesystem::path cache_dir;
  /// The compiler. Empty: $SADSL_CXX, else the first of c++, g++, clang++ on $PATH.
  std::string compiler;
  std::vector<std::string> flags = {"-O3", "-std=c++17", "-fPIC", "-shared", "-ffp-contract=off"};
  /// Compile only the evaluation path this machine runs: on one with AVX-512 (avx512f) the flags
  /// gain -DSADSL_AVX512_ONLY, on one with AVX2 -DSADSL_AVX2_ONLY (no scalar function: a third to
  /// a half of the compile time; single points go through the vector path in every lane, which is
  /// faster) unless they hold one of these or -DSADSL_SCALAR_ONLY. False builds the portable
  /// library (every path, the widest the machine runs chosen at load), as sources compiled ahead
  /// of time are.
  bool host_path_only = true;
  /// With GCC, the flags gain switches that leave out optimization passes costing a quarter of the
  /// compile time and giving the models' straight-line vector code nothing (-fno-schedule-insns2,
  /// -fno-tree-pre, -fno-gcse, -fno-tree-slp-vectorize, -fno-tree-pta, -fno-tree-vrp,
  /// -fno-expensive-optimizations, -fno-inline-small-functions, -fno-ipa-cp-clone, -fno-tree-ccp,
  /// -fno-code-hoisting, -fno-tree-dominator-opts, -fno-tree-vectorize, -fno-rerun-cse-after-loop;
  /// the values are the same), and a source built for one path links against the C library and
  /// libgcc only (-nodefaultlibs -lc -lgcc: it calls nothing else, and the link takes half the
  /// time). Other compilers (told apart by their --version, once per process) get the flags
  /// as given.
  bool lean_gcc_passes = true;
  /// The compiler is stopped (killed) and jit_compile throws sadsl::error when this becomes true
  /// or the deadline passes: a time budget includes the compilation.
  const std::atomic<bool>* stop = nullptr;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

/// The cache directory `options` selects (created if missing).
std::filesystem::path jit_cache_dir(const jit_options& options);

/// Finds the compiler `options` selects; throws sadsl::error("no C++ compiler found ...").
std::string find_cxx_compiler(const jit_options& options);

/// Compiles `model` at run time (or loads it from the cache). Throws sadsl::error when no
/// compiler is found or compilation fails (the message quotes the compiler's output). Safe to call
/// from several threads and processes at once (e.g. to compile several designs in parallel).
compiled_model jit_compile(const design_model& model, const jit_options& options = {});

/// What jit_compile_all gives for one model: its code, or why there is none.
struct jit_outcome {
  std::optional<compiled_model> compiled;
  std::string error;  ///< jit_compile's message for the same failure
};

/// jit_compile for several models at once: those not in the cache are compiled in at most
/// `threads` translation units (0: one per hardware thread), all at once (a compiler run costs
/// some 0.03 s before its first model); each is then cached on its own, as jit_compile caches it.
/// A model whose group fails to compile gets that error (the message names the group's models).
/// Models with the same evaluation code are compiled once, and models with the same core in one
/// unit (the core compiled once).
std::vector<jit_outcome> jit_compile_all(const std::vector<const design_model*>& models, const jit_options& options = {},
                                         unsigned threads = 1);

/// The model compiled ahead of time (sadsl_add_model) whose hash is `hash`, or nullptr.
const compiled_abi* find_ahead_of_time(const std::string& hash);

/// All models compiled ahead of time into this program, in registration order.
std::vector<const compiled_abi*> ahead_of_time_models();

}  // namespace sadsl::model

/// Called by the static initializers of generated sources (sadsl_add_model).
extern "C" int sadsl_register_ahead_of_time_model(const void* abi);
