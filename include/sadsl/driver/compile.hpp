#pragma once
// The whole flow in one function, the way Halide's lower() holds its passes: a flat sequence of
// steps, each one call into the area that owns it, each timed and optionally written out.
//
//   kernel -> program -> designs -> verify -> models -> tune -> architecture -> HLS
//
// `verify` runs every design twice against the reference interpreter on a reduced instance: its
// concrete schedule (the interpreter) and its architecture (the PE array and I/O network as
// communicating processes, the executor). `architecture` builds the tuned design's PE array and
// I/O network at the tuned point; `HLS` writes its Vitis HLS project (codegen/hls.hpp) into
// <output>/<design folder>/. `models` asks a model_source: compiler_models.hpp (sadsl's own, read
// off each design's architecture) or odyssey_models.hpp (the AutoSA descriptor of the same dataflow
// and tile order). Verification and models work on several threads (compile_options::threads).
//
//   kernel mm = ...;
//   compile_options o;
//   o.models = compiler_models(o.device);
//   compile_result r = compile(mm, o);
//   if (r.tuned()) std::cout << r.best_design().name();
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "sadsl/codegen/hls.hpp"
#include "sadsl/comm/architecture.hpp"
#include "sadsl/modeling/symbolic_architecture.hpp"
#include "sadsl/compute/design.hpp"
#include "sadsl/compute/designs.hpp"
#include "sadsl/model/design_model.hpp"
#include "sadsl/poly/program.hpp"
#include "sadsl/tune/device.hpp"
#include "sadsl/tune/search.hpp"
#include "sadsl/tune/tune.hpp"

namespace sadsl {

/// Thrown by a model source for a design it has no model of, saying why (compiler_models():
/// the builder's reason, e.g. triangular loops): the design is not tuned and the reason is kept
/// (compile_result::not_modeled). Any other error from a source stops the flow.
class no_model : public error {
public:
  using error::error;
};

/// Where the designs' performance models come from: a function giving a design's model, or
/// std::nullopt (or a no_model thrown, with the reason) when there is none (the design is not
/// tuned). Every parameter must carry its origin
/// (problem size, factor or pack of this kernel).
///
/// A plain function is called on the calling thread, once per design, with the designs of the
/// compile result. One made by model_source::concurrent (sadsl's own sources are) is called from
/// several threads at once, each thread with the designs of its own copy of the kernel
/// (kernel::with_own_context): it must be safe to call so, and may use the design's isl objects.
class model_source {
public:
  using function = std::function<std::optional<model::design_model>(const design&)>;

  model_source() = default;
  template <class F>
    requires(!std::same_as<std::remove_cvref_t<F>, model_source> && std::constructible_from<function, F>)
  model_source(F&& f) : model_(std::forward<F>(f)) {}  // NOLINT: a lambda is a model source
  /// A source that may be called from several threads at once.
  static model_source concurrent(function f) {
    model_source s(std::move(f));
    s.concurrent_ = true;
    return s;
  }

  std::optional<model::design_model> operator()(const design& d) const { return model_(d); }
  explicit operator bool() const { return static_cast<bool>(model_); }
  bool is_concurrent() const { return concurrent_; }

private:
  function model_;
  bool concurrent_ = false;
};

struct compile_options {
  /// Which dataflows and passes (compute/designs.hpp).
  design_options designs;
  /// Check every design on a reduced instance (each problem size n-th param at most
  /// verify_size + 2n, so that no two are equal) with the interpreter and the executor; the
  /// kernel's own sizes are restored afterwards.
  bool verify = true;
  int64_t verify_size = 12;
  /// Where the designs' models come from; empty: the designs are not tuned.
  model_source models;
  /// Threads for the steps that work design by design (verify, models, their compilation): 0 is
  /// one per hardware thread. Each thread but the calling one works on its own copy of the kernel.
  unsigned threads = 0;
  /// The device to tune for, the search method and its budget (exact: to the proven optimum of
  /// each design it finishes in its part of the budget, genetic-mp otherwise; tune::tune_designs,
  /// tune::search_settings::exact_budget_share).
  tune::device device = tune::builtin_device("u250");
  std::string method = "exact";
  tune::search_options search;
  /// Write each step's result into this folder (empty: nothing is written): polyhedral.txt,
  /// designs.txt, tuned.json, report.md, architecture.txt, architecture.dot,
  /// symbolic_architecture.txt, and the tuned design's HLS
  /// project in the subfolder design_folder(design). Files are replaced atomically.
  std::filesystem::path output;
  /// Options of the HLS project (codegen/hls.hpp).
  hls_options hls;
};

/// One step of the flow and its wall time.
struct compile_step {
  std::string name;
  double seconds = 0;
};

struct compile_result {
  std::shared_ptr<const program> polyhedral;  ///< the kernel's program
  std::vector<dependence> dependences;
  std::vector<design> designs;                 ///< every dataflow x tile order
  /// Per design (as `designs`), when verified: why building its architecture was refused at the
  /// verification size ("" when it was built and verified). A refused design is not modeled nor
  /// tuned; the others go on.
  std::vector<std::string> refused;
  tune::workload work;                         ///< the kernel's operations at its problem sizes
  /// The design space of each design that has a model, and the index of its design.
  std::vector<tune::design_space> spaces;
  std::vector<size_t> space_design;
  std::optional<tune::multi_result> tuning;
  /// Per design (as `designs`), when a model source was given: why it has no model ("" when it
  /// has one; the source's no_model message, "the model source has none", or for a refused
  /// design "not built: " and the refusal).
  std::vector<std::string> not_modeled;
  /// Why nothing was tuned ("" when something was): with a model source and no model, the first
  /// design's reason.
  std::string not_tuned;
  /// The tuned design's architecture at the tuned point.
  std::optional<architecture> tuned_architecture;
  /// The tuned design's architecture with its factors unbound (modeling/symbolic_architecture.hpp),
  /// or std::nullopt and why not (sadsl cannot build it for every design another tool modeled).
  std::optional<symbolic_architecture> tuned_symbolic_architecture;
  std::string symbolic_not_built;
  std::vector<compile_step> steps;  ///< in order
  tune::objective goal;             ///< what the search minimised

  bool tuned() const { return tuning && tuning->found(); }
  /// The best design and its point (sadsl::error unless tuned()).
  const design& best_design() const;
  design_point best_point() const;
  /// The tuned configuration (tune/tune.hpp) of the best design, its design named by the
  /// compiler's name; deterministic: no search times or evaluation counts.
  nlohmann::ordered_json tuned_configuration() const;
  /// The comparison across designs (Markdown): per tuned design its best point's cycles,
  /// throughput, DSP, BRAM18K, URAM, off-chip bytes and whether the search proved it optimal, the
  /// best one marked; deterministic as tuned_configuration(). compile() writes it as report.md.
  std::string report() const;
};

/// Runs the flow on kernel k at its current problem sizes. Throws sadsl::error for a kernel that
/// cannot be mapped, and sadsl::internal_error for a design that fails its verification (a bug).
compile_result compile(const kernel& k, const compile_options& options = {});

/// The model of each of ds (std::nullopt where the source has none), made on up to `threads`
/// threads (0: one per hardware thread) when the source is concurrent, on the calling thread
/// otherwise. ds are designs(k, options) of one kernel k, or some of them: a helper thread finds
/// each design's twin among designs(copy of k, options) by its description (design::str()); one
/// without a twin is modelled on the calling thread. A no_model thrown by the source is that
/// design's std::nullopt, its message stored in (*why)[index] when `why` is given ("" elsewhere);
/// the first other error, in design order, is rethrown.
std::vector<std::optional<model::design_model>> design_models(const std::vector<design>& ds, const model_source& source,
                                                              const design_options& options = {}, unsigned threads = 0,
                                                              std::vector<std::string>* why = nullptr);

/// A folder name for design d: its space loops, then its tile order, loop names joined by '_'
/// ("[i,j] <[i,j],k>" -> "i_j-i_j_k").
std::string design_folder(const design& d);

/// The design point of d at a tuned point of its model: each factor's value, matched by loop and
/// level (a model that tiles a loop with another chain than d is an error naming both).
design_point design_point_of(const design& d, const model::design_model& m, const std::vector<double>& values);

}  // namespace sadsl
