// sadsl eval: the metrics of one design point.
#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "point_options.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/odyssey.hpp"

namespace sadsl::cli {
namespace {

// Parameters are integers; print them without a fraction.
nlohmann::ordered_json integer_or_real(double value) {
  if (value == std::floor(value) && std::fabs(value) < 9.0e15) return static_cast<long long>(value);
  return value;
}

nlohmann::ordered_json to_json(const model::evaluator& ev, const std::vector<double>& point, const model::metrics& m) {
  nlohmann::ordered_json result;
  result["design"] = ev.model().name;
  result["latency"] = m.latency;
  result["latency_prologue"] = m.latency_prologue;
  result["latency_main"] = m.latency_main;
  result["latency_epilogue"] = m.latency_epilogue;
  result["dsp"] = m.dsp;
  result["bram18k"] = m.bram18k;
  result["uram"] = m.uram;
  result["lut"] = m.lut;
  result["offchip_bytes"] = m.offchip_bytes;
  result["legal"] = m.legal != 0;
  result["feasible"] = m.feasible != 0;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  nlohmann::ordered_json inferred = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < point.size(); ++i) {
    params[ev.model().params[i].name] = integer_or_real(point[i]);
    if (ev.model().params[i].inferred) inferred[ev.model().params[i].name] = integer_or_real(point[i]);
  }
  result["params"] = params;
  result["inferred"] = inferred;
  result["backend"] = model::backend_name(ev.active_backend());
  return result;
}

int run_eval(const arguments& args, std::ostream& out) {
  args.allow_only({"descriptor", "size", "point", "device", "json", "compiled"});
  // One point: interpreting is faster than compiling (about 0.5 s, once per cache directory).
  model::evaluator_options options;
  if (!args.flag("compiled")) options.use_ahead_of_time = options.use_just_in_time = false;
  model::evaluator ev(model::import_odyssey_descriptor(args.required("descriptor", "FILE")), options);
  std::vector<double> point = point_from(args, ev.model());
  model::metrics m = ev.evaluate(point, device_from(args));
  nlohmann::ordered_json result = to_json(ev, point, m);
  if (args.flag("json")) {
    out << result.dump() << "\n";
    return 0;
  }
  for (const auto& [key, value] : result.items()) {
    out << std::left << std::setw(18) << key;
    out << (value.is_string() ? value.get<std::string>() : value.dump()) << "\n";
  }
  return 0;
}

const command_registration eval_registration{
    "eval",
    {"evaluate one point of a design descriptor: --descriptor FILE --size i=N,... --point name=N,... "
     "[--device u250|u280|u200|vu9p|FILE] [--json] [--compiled]",
     {"json", "compiled"},
     run_eval}};

}  // namespace
}  // namespace sadsl::cli
