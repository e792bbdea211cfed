#include "sadsl/driver/compile.hpp"

#include <chrono>
#include <fmt/format.h>
#include <memory>

#include "sadsl/comm/dump.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/poly/dependences.hpp"
#include "sadsl/poly/operations.hpp"
#include "steps.hpp"

namespace sadsl {

// The flow. Each line is one step: read it top to bottom to know what sadsl does to a kernel.
compile_result compile(const kernel& k, const compile_options& o) {
  compile_result r;
  r.goal = o.search.goal;
  auto step = [&](const char* name, auto&& run) { return driver::timed(r.steps, name, run); };

  r.polyhedral = step("program", [&] { return std::make_shared<const program>(build_program(k)); });
  r.dependences = step("dependences", [&] { return compute_dependences(*r.polyhedral); });
  driver::write(o.output, "polyhedral.txt", driver::polyhedral_text(*r.polyhedral, r.dependences));
  r.designs = step("designs", [&] { return designs(k, o.designs); });
  driver::write(o.output, "designs.txt", driver::designs_text(r.designs));
  if (o.verify) r.refused = step("verify", [&] { return driver::verify_designs(k, r.designs, o); });
  r.work = step("operations", [&] { return driver::workload_of(*r.polyhedral); });
  if (o.models) step("models", [&] { return driver::design_spaces(r, o); });
  if (r.spaces.empty()) r.not_tuned = o.models ? driver::none_modeled(r) : "no model source given";
  if (!r.spaces.empty()) r.tuning = step("tune", [&] { return tune::tune_designs(r.spaces, o.method, o.search); });
  if (r.tuning && !r.tuned()) r.not_tuned = "no design has a feasible point within the search's budget";
  if (r.tuned()) r.tuned_architecture = step("architecture", [&] {
    return build_architecture(r.best_design(), architecture_point{r.best_point(), {}, false});
  });
  if (r.tuned()) r.tuned_symbolic_architecture = step("symbolic", [&] {
    return driver::symbolic_or_why(r.best_design(), r.symbolic_not_built);
  });
  if (r.tuned_architecture && !o.output.empty()) step("hls", [&] {
    write_hls_project(*r.tuned_architecture, o.output / design_folder(r.best_design()), o.hls);
  });
  if (r.tuned()) {
    driver::write(o.output, "tuned.json", r.tuned_configuration().dump(2) + "\n");
    driver::write(o.output, "report.md", r.report());
  }
  if (r.tuned_architecture) {
    driver::write(o.output, "architecture.txt", dump_architecture(*r.tuned_architecture));
    driver::write(o.output, "architecture.dot", architecture_dot(*r.tuned_architecture));
    driver::write(o.output, "symbolic_architecture.txt",
                  driver::symbolic_text(r.best_design(), r.tuned_symbolic_architecture, r.symbolic_not_built));
  }
  return r;
}

const design& compile_result::best_design() const {
  if (!tuned()) throw error("compile result: no design was tuned (" + not_tuned + ")");
  return designs.at(space_design.at(tuning->best_index));
}

design_point compile_result::best_point() const {
  const design& d = best_design();
  return design_point_of(d, spaces.at(tuning->best_index).model(), tuning->best().params);
}

std::string design_folder(const design& d) {
  auto joined = [](const std::vector<loop_id>& loops) {
    std::string out;
    for (const auto& l : loops) out += (out.empty() ? "" : "_") + l.name();
    return out;
  };
  return joined(d.space) + "-" + joined(d.tile_order);
}

nlohmann::ordered_json compile_result::tuned_configuration() const {
  const design& d = best_design();
  auto j = tune::tuned_configuration(spaces, *tuning, goal, work);  // proven over all designs
  j.erase("seconds");  // deterministic: the same kernel and options give the same file
  j.erase("evaluations");
  j["design"] = d.name();
  j["dataflow"] = d.dataflow();
  std::vector<std::string> order;
  for (const auto& l : d.tile_order) order.push_back(l.name());
  j["tile_order"] = order;
  return j;
}

std::string compile_result::report() const {
  if (!tuned()) throw error("compile result: no design was tuned (" + not_tuned + ")");
  const auto& first = tuning->best();
  std::string unit = tune::tuned_configuration(spaces.at(tuning->best_index), first, goal, work).value("throughput_unit", "");
  std::string out = fmt::format("# {}: {} designs tuned for {}\n\n", polyhedral->kernel().name(), spaces.size(), spaces.front().target().name);
  out += fmt::format("| design | cycles | {} | DSP | DSP efficiency | BRAM18K | URAM | off-chip MB | proven optimal |\n", unit);
  out += "|---|---|---|---|---|---|---|---|---|\n";
  for (size_t s = 0; s < spaces.size(); ++s) {
    const tune::search_result& found = tuning->per_design[s];
    std::string name = designs.at(space_design[s]).name() + (s == tuning->best_index ? " (best)" : "");
    if (!found.found) {
      out += fmt::format("| {} | {} | | | | | | | |\n", name, found.cut_off ? "no feasible point below the best" : "no feasible point");
      continue;
    }
    auto c = tune::tuned_configuration(spaces[s], found, goal, work);
    const auto& efficiency = c["dsp_efficiency"];
    std::string dsp_efficiency = efficiency.is_number() ? fmt::format("{:.1f}%", 100 * efficiency.get<double>()) : "";
    out += fmt::format("| {} | {:.0f} | {:.1f} | {:.0f} | {} | {:.0f} | {:.0f} | {:.1f} | {} |\n", name, c.value("latency", 0.0),
                       c.value("throughput", 0.0), c.value("dsp", 0.0), dsp_efficiency, c.value("bram18k", 0.0), c.value("uram", 0.0),
                       c.value("offchip_bytes", 0.0) / 1e6, found.cut_off ? "cut off" : c.value("proven_optimal", false) ? "yes" : "no");
  }
  // The designs without a model, and why.
  for (size_t d = 0; d < not_modeled.size(); ++d)
    if (!not_modeled[d].empty()) out += fmt::format("| {} | not modeled: {} | | | | | | | |\n", designs[d].name(), not_modeled[d]);
  // A row's "yes" proves that design's own optimum; the best one is the optimum of all only when
  // every design's search finished.
  if (!tune::proven_optimal(*tuning))
    out += "\nThe best design is not proven optimal over all designs: the search did not finish every design "
           "(its budget or a stop ended it; rows without \"yes\" or \"cut off\").\n";
  return out;
}

}  // namespace sadsl
