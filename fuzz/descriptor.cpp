// Fuzz target: the Odyssey descriptor importer (JSON text -> design model), then what `sadsl eval`
// and `sadsl emit` do with an imported model: read its design, evaluate one point with the
// interpreter, emit its C++.
#include <vector>

#include "fuzz_support.hpp"
#include "sadsl/model/compile.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/files.hpp"
#include "sadsl/model/odyssey.hpp"

using namespace sadsl;

namespace {

void use_model(const model::design_model& m) {
  model::evaluator_options interpret;
  interpret.use_ahead_of_time = interpret.use_just_in_time = false;
  model::evaluator ev(m, interpret);
  std::vector<double> point(m.params.size(), 4.0);
  for (std::size_t i = 0; i < point.size(); ++i)
    if (m.params[i].role() == model::parameter_role::problem_size) point[i] = 64.0;
  model::metrics result = ev.evaluate(point, model::device_limits{12288 * 0.7, 5376 * 0.7, 1280 * 0.7});
  fuzz::fuzz_check(result.feasible == 0 || result.legal != 0, "a feasible point is legal");
  model::emit_cpp(m);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text = fuzz::text_of(data, size);
  nlohmann::ordered_json descriptor;
  if (fuzz::refused([&] { descriptor = model::parse_json(text, "fuzz.json"); })) return 0;
  fuzz::refused([&] { model::read_odyssey_design(descriptor, "fuzz.json"); });
  fuzz::refused([&] { use_model(model::import_odyssey_descriptor(descriptor, "fuzz.json", "fuzz")); });
  return 0;
}
