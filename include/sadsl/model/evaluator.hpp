#pragma once
// The one entry point for evaluating a model fast: uses the code compiled ahead of time if the
// program has it (sadsl_add_model), else compiles at run time, else falls back to the interpreter.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sadsl/model/compile.hpp"
#include "sadsl/model/interpreter.hpp"

namespace sadsl::model {

enum class backend { interpreter, ahead_of_time, just_in_time };

/// "interpreter", "ahead-of-time" or "just-in-time".
const char* backend_name(backend b);

struct evaluator_options {
  bool use_ahead_of_time = true;
  bool use_just_in_time = true;
  jit_options jit;
};

/// Evaluation is const and thread-safe: one evaluator can serve every search thread.
class evaluator {
public:
  /// Selects the fastest available backend. A failed run-time compilation (e.g. no compiler) is
  /// not an error: the interpreter is used and fallback_reason() says why.
  explicit evaluator(design_model model, const evaluator_options& options = {});

  /// One point in place (inferred parameters written back).
  metrics evaluate(std::span<double> point, const device_limits& limits) const;
  /// `count` points stored row by row (parameter_count() values each).
  void evaluate_batch(std::size_t count, std::span<double> points, std::span<metrics> out,
                      const device_limits& limits) const;

  /// The compiled code, for the hottest loops (a plain indirect call per point), if any.
  const compiled_model* compiled() const { return compiled_ ? &*compiled_ : nullptr; }
  backend active_backend() const { return backend_; }
  const std::string& fallback_reason() const { return fallback_reason_; }
  const design_model& model() const { return interpreter_.model(); }
  std::size_t parameter_count() const { return interpreter_.parameter_count(); }

private:
  friend std::vector<std::shared_ptr<const evaluator>> make_evaluators(std::vector<design_model> models,
                                                                       const evaluator_options& options, unsigned threads);
  evaluator(design_model model, std::optional<compiled_model> compiled, backend active, std::string fallback_reason);

  interpreter interpreter_;
  std::optional<compiled_model> compiled_;
  backend backend_ = backend::interpreter;
  std::string fallback_reason_;
};

/// An evaluator of each model, as evaluator(model, options) makes it, but the models that need
/// the JIT are compiled together on `threads` threads (jit_compile_all: one compiler run per
/// thread instead of one per model; 0: one per hardware thread), and each model's code is made
/// once (for its hash and its source), on those threads. A model that cannot be written is
/// interpreted, its error the fallback reason.
std::vector<std::shared_ptr<const evaluator>> make_evaluators(std::vector<design_model> models,
                                                              const evaluator_options& options = {}, unsigned threads = 1);

}  // namespace sadsl::model
