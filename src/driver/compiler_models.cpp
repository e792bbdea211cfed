#include "sadsl/driver/compiler_models.hpp"

#include "sadsl/error.hpp"

namespace sadsl {

model_source compiler_models(const modeling_options& options) {
  return [options](const design& d) -> std::optional<model::design_model> {
    try {
      return performance_model(d, options);
    } catch (const error&) {
      return std::nullopt;  // outside what the builder models yet: the design is not tuned
    }
  };
}

}  // namespace sadsl
