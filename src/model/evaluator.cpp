#include "sadsl/model/evaluator.hpp"

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
  std::string hash = model_hash(interpreter_.model());
  if (options.use_ahead_of_time) {
    if (const compiled_abi* abi = find_ahead_of_time(hash)) {
      compiled_.emplace(abi, nullptr);
      backend_ = backend::ahead_of_time;
      return;
    }
  }
  if (!options.use_just_in_time) return;
  try {
    compiled_.emplace(jit_compile(interpreter_.model(), options.jit));
    backend_ = backend::just_in_time;
  } catch (const error& e) {
    fallback_reason_ = e.what();
  }
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
