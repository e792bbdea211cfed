#pragma once
// Internal: a model's evaluation code (emit_cpp.cpp), made once and shared by all that need it:
// its hash (which finds a model compiled ahead of time), its own source (the JIT cache's key) and
// the source of a unit of several models. Making it is most of emitting a model (4 ms for an MM
// model), so make_evaluators makes each once, on its threads.
#include <string>
#include <vector>

#include "sadsl/model/compile.hpp"

namespace sadsl::model {

/// A model's core (emit::core_function on every path, in a namespace named by the core's hash,
/// which models that differ only in which tile count goes where share) and the model's own part:
/// the parameter indices of its tile counts, which its entries pass to the core, and the scalar
/// path's evaluation function. `error` is why there is none (a model that cannot be written).
struct evaluation_code {
  std::string core;
  std::string core_hash;
  std::string entry;
  std::string error;
  std::string space() const { return "sadsl_core_" + core_hash; }
  std::string hash() const;  ///< model_hash
};

/// Throws sadsl::error where the model cannot be written.
evaluation_code evaluation_code_of(const design_model& model);
/// evaluation_code_of of each model on `threads` threads (0: one per hardware thread), each
/// failure as its code's error.
std::vector<evaluation_code> evaluation_codes(const std::vector<const design_model*>& models, unsigned threads);

/// The address of each code, for the functions below.
std::vector<const evaluation_code*> addresses(const std::vector<evaluation_code>& codes);

/// emit_model and emit_models from codes already made (codes[i] is models[i]'s, without error).
emitted_model emit_model(const design_model& model, const evaluation_code& code, const emit_options& options = {});
emitted_models emit_models(const std::vector<const design_model*>& models, const std::vector<const evaluation_code*>& codes,
                           const emit_options& options = {});

/// jit_compile from the model's code already made.
compiled_model jit_compile(const design_model& model, const evaluation_code& code, const jit_options& options);
/// jit_compile_all from codes already made (codes[i] is models[i]'s; one with an error is that
/// model's outcome).
std::vector<jit_outcome> jit_compile_all(const std::vector<const design_model*>& models,
                                         const std::vector<const evaluation_code*>& codes, const jit_options& options,
                                         unsigned threads);

}  // namespace sadsl::model
