#include "sadsl/model/evaluator.hpp"

#include "evaluation_code.hpp"
#include "sadsl/error.hpp"

namespace sadsl::model {

const char* backend_name(backend b) {
  switch (b) {
    case backend::interpreter: return "interpreter";
    case backend::ahead_of_time: return "ahead-of-time";
    case backend::just_in_time: return "just-in-time";
  }
  return "?";
}

evaluator::evaluator(design_model model, const evaluator_options& options) : interpreter_(std::move(model)) {
  if (!options.use_ahead_of_time && !options.use_just_in_time) return;
  try {  // a model that cannot be written (its hash cannot be made either) is interpreted
    evaluation_code code = evaluation_code_of(interpreter_.model());  // once, for the hash and the JIT
    if (options.use_ahead_of_time) {
      if (const compiled_abi* abi = find_ahead_of_time(code.hash())) {
        compiled_.emplace(abi, nullptr);
        backend_ = backend::ahead_of_time;
        return;
      }
    }
    if (!options.use_just_in_time) return;
    compiled_.emplace(jit_compile(interpreter_.model(), code, options.jit));
    backend_ = backend::just_in_time;
  } catch (const error& e) {
    fallback_reason_ = e.what();
  }
}

evaluator::evaluator(design_model model, std::optional<compiled_model> compiled, backend active, std::string fallback_reason)
    : interpreter_(std::move(model)), compiled_(std::move(compiled)), backend_(active),
      fallback_reason_(std::move(fallback_reason)) {}

std::vector<std::shared_ptr<const evaluator>> make_evaluators(std::vector<design_model> models,
                                                              const evaluator_options& options, unsigned threads) {
  std::vector<std::shared_ptr<const evaluator>> made(models.size());
  // Each model's code once (its hash finds it among the models compiled ahead of time, and the
  // JIT writes it), on the threads the JIT uses.
  std::vector<evaluation_code> codes;
  if (options.use_ahead_of_time || options.use_just_in_time) {
    std::vector<const design_model*> all;
    for (const design_model& m : models) all.push_back(&m);
    codes = evaluation_codes(all, threads);
  }
  std::vector<const design_model*> to_compile;
  std::vector<const evaluation_code*> to_compile_codes;
  std::vector<std::size_t> compiled_index;
  for (std::size_t m = 0; m < models.size(); ++m) {
    const compiled_abi* abi = nullptr;
    if (options.use_ahead_of_time && codes[m].error.empty()) abi = find_ahead_of_time(codes[m].hash());
    if (abi) {
      made[m].reset(new evaluator(std::move(models[m]), compiled_model(abi, nullptr), backend::ahead_of_time, ""));
    } else if (options.use_just_in_time) {
      to_compile.push_back(&models[m]);
      to_compile_codes.push_back(&codes[m]);
      compiled_index.push_back(m);
    } else {
      made[m].reset(new evaluator(std::move(models[m]), std::nullopt, backend::interpreter, codes.empty() ? "" : codes[m].error));
    }
  }
  std::vector<jit_outcome> outcomes = jit_compile_all(to_compile, to_compile_codes, options.jit, threads);
  for (std::size_t c = 0; c < compiled_index.size(); ++c) {
    std::size_t m = compiled_index[c];
    jit_outcome& o = outcomes[c];
    backend active = o.compiled ? backend::just_in_time : backend::interpreter;
    made[m].reset(new evaluator(std::move(models[m]), std::move(o.compiled), active, std::move(o.error)));
  }
  return made;
}

metrics evaluator::evaluate(std::span<double> point, const device_limits& limits) const {
  SADSL_INTERNAL_ASSERT(point.size() == parameter_count(), "point has the wrong number of values");
  if (!compiled_) return interpreter_.evaluate(point, limits);
  metrics m;
  compiled_->evaluate(point.data(), &m, &limits);
  return m;
}

void evaluator::evaluate_batch(std::size_t count, std::span<double> points, std::span<metrics> out,
                               const device_limits& limits) const {
  SADSL_INTERNAL_ASSERT(points.size() >= count * parameter_count() && out.size() >= count, "batch buffers too small");
  if (!compiled_) return interpreter_.evaluate_batch(count, points, out, limits);
  compiled_->evaluate_batch(count, points.data(), out.data(), &limits);
}

}  // namespace sadsl::model
