// sadsl eval: the metrics of one design point, with every parameter's origin.
#include <memory>

#include "command.hpp"
#include "options.hpp"
#include "output.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/odyssey.hpp"
#include "signals.hpp"

namespace sadsl::cli {
namespace {

struct eval_options {
  std::string descriptor, size, point, device, output;
  bool json = false;
  bool compiled = false;
};

nlohmann::ordered_json to_json(const model::evaluator& ev, const std::vector<double>& point, const model::metrics& m) {
  nlohmann::ordered_json result;
  result["design"] = ev.model().name;
  result["source"] = ev.model().source;
  result["latency"] = m.latency;
  result["latency_prologue"] = m.latency_prologue;
  result["latency_main"] = m.latency_main;
  result["latency_epilogue"] = m.latency_epilogue;
  result["dsp"] = m.dsp;
  result["bram18k"] = m.bram18k;
  result["uram"] = m.uram;
  result["lut"] = m.lut;
  result["ff"] = m.ff;
  result["offchip_bytes"] = m.offchip_bytes;
  result["legal"] = m.legal != 0;
  result["feasible"] = m.feasible != 0;
  nlohmann::ordered_json params = nlohmann::ordered_json::object(), inferred = nlohmann::ordered_json::object(),
                         origins = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < point.size(); ++i) {
    const model::parameter& p = ev.model().params[i];
    params[p.name] = integer_or_real(point[i]);
    if (p.inferred) inferred[p.name] = integer_or_real(point[i]);
    origins[p.name] = model::origin_json(p.origin);
  }
  result["params"] = params;
  result["inferred"] = inferred;
  result["origins"] = origins;
  result["backend"] = model::backend_name(ev.active_backend());
  return result;
}

int run_eval(const eval_options& o, std::ostream& out) {
  tune::device device = parse_device("eval", o.device);
  // One point: interpreting is faster than compiling (about 0.5 s, once per cache directory).
  model::evaluator_options options;
  options.use_ahead_of_time = options.use_just_in_time = o.compiled;
  options.jit.stop = &stop_requested();
  model::evaluator ev(model::import_odyssey_descriptor(o.descriptor), options);
  if (o.compiled && !ev.compiled())
    throw error("sadsl eval: --compiled: the model could not be compiled: " + ev.fallback_reason());
  std::vector<double> point = point_from("eval", o.size, o.point, ev.model());
  model::metrics m = ev.evaluate(point, device.limits());
  nlohmann::ordered_json result = to_json(ev, point, m);
  write_result("eval", o.output, o.json ? result.dump() + "\n" : text_lines(result), out);
  return exit_success;
}

command_runner define_eval(CLI::App& app) {
  auto o = std::make_shared<eval_options>();
  add_value(app, "descriptor", o->descriptor, "FILE", "the design's descriptor (AutoSA/Odyssey JSON)")->required();
  add_value(app, "size", o->size, "i=N,...", "every problem size, 1 to 2^53")->required();
  add_value(app, "point", o->point, "name=N,...", "every tiling factor that is not inferred, 1 to 2^53")->required();
  add_value(app, "device", o->device, "NAME|FILE", "u250 (default), u280, u200, vu9p or a device JSON file");
  add_value(app, "output", o->output, "FILE", "write the result to FILE (replaced atomically) instead of stdout");
  add_flag(app, "json", o->json, "print one JSON object (else key value lines)");
  add_flag(app, "compiled", o->compiled, "evaluate with compiled code (compiling it at run time if needed); an error if it cannot be compiled");
  return [o](std::ostream& out) { return run_eval(*o, out); };
}

const command_registration eval_registration{"eval", {"evaluate one point of a design descriptor", define_eval}};

}  // namespace
}  // namespace sadsl::cli
