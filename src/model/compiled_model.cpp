// Compiled models and the registry of models compiled ahead of time.
#include <mutex>
#include <type_traits>

#include "sadsl/error.hpp"
#include "sadsl/model/compile.hpp"

namespace sadsl::model {

// Generated code sees metrics as 12 doubles and device_limits as 3 (ABI version 2).
static_assert(sizeof(metrics) == 12 * sizeof(double) && std::is_standard_layout_v<metrics>);
static_assert(sizeof(device_limits) == 3 * sizeof(double) && std::is_standard_layout_v<device_limits>);

compiled_model::compiled_model(const compiled_abi* abi, std::shared_ptr<void> library)
    : abi_(abi), library_(std::move(library)) {
  SADSL_INTERNAL_ASSERT(abi_ != nullptr, "compiled model without ABI table");
}

namespace {
// Static initializers of generated sources register here before main(); a function-local
// static avoids the initialization-order problem.
struct registry {
  std::mutex lock;
  std::vector<const compiled_abi*> models;
};
registry& ahead_of_time_registry() {
  static registry instance;
  return instance;
}
}  // namespace

const compiled_abi* find_ahead_of_time(const std::string& hash) {
  registry& r = ahead_of_time_registry();
  std::lock_guard guard(r.lock);
  for (const compiled_abi* abi : r.models)
    if (abi->model_hash == hash) return abi;
  return nullptr;
}

std::vector<const compiled_abi*> ahead_of_time_models() {
  registry& r = ahead_of_time_registry();
  std::lock_guard guard(r.lock);
  return r.models;
}

}  // namespace sadsl::model

extern "C" int sadsl_register_ahead_of_time_model(const void* abi) {
  auto* table = static_cast<const sadsl::model::compiled_abi*>(abi);
  if (table->version != sadsl::model::compiled_abi::current_version) return 0;  // stale generated code
  auto& r = sadsl::model::ahead_of_time_registry();
  std::lock_guard guard(r.lock);
  r.models.push_back(table);
  return 1;
}
