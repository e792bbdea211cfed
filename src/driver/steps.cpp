#include "steps.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "sadsl/comm/executor.hpp"
#include "sadsl/compute/verify.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/files.hpp"
#include "sadsl/modeling/performance_model.hpp"
#include "sadsl/modeling/symbolic_architecture.hpp"
#include "sadsl/poly/dump.hpp"
#include "sadsl/poly/operations.hpp"
#include "per_design.hpp"

namespace sadsl::driver {

void write(const std::filesystem::path& folder, const char* name, const std::string& text) {
  if (folder.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw error(fmt::format("cannot create the output folder {}: {}", folder.string(), ec.message()));
  model::write_output_file(folder / name, text);
}

std::string polyhedral_text(const program& p, const std::vector<dependence>& deps) {
  return dump_program(p) + "dependences:\n" + dump_dependences(p, deps) + "loop nest:\n" +
         dump_schedule_code(p, p.schedule());
}

std::string designs_text(const std::vector<design>& ds) {
  std::string text;
  for (const auto& d : ds) text += d.str();
  return text;
}

std::vector<std::string> verify_designs(const kernel& k, const std::vector<design>& ds, const compile_options& o) {
  if (o.verify_size < 1)
    throw error(fmt::format("compile_options::verify_size = {}, but sizes are at least 1", o.verify_size));
  scoped_sizes sizes(k, [&](int64_t n, int64_t value) { return std::min(value, o.verify_size + 2 * n); });
  const buffers expected = reference_run(k);  // once for every design (read by every thread)
  std::vector<std::string> refused(ds.size());
  for_each_design(ds, o.designs, o.threads, [&](size_t index, const design& d) {
    design_point point = sample_point(d);
    std::string problem = verify_design(d, point, expected);
    if (problem.empty()) {
      // A design whose architecture sadsl refuses to build (comm's checks, docs/reliability.md)
      // is dropped; the kernel's other designs go on.
      std::optional<architecture> a;
      try {
        a = build_architecture(d, {point, {}, false});
      } catch (const error& e) {
        refused[index] = e.what();
        return;
      }
      problem = verify_architecture(*a, expected);
    }
    if (!problem.empty()) throw internal_error("verification of kernel \"" + k.name() + "\" failed: " + problem);
  });
  return refused;
}

tune::workload workload_of(const program& p) {
  operation_count ops = count_operations(p);
  return {ops.operations, ops.floating_point, operations_per_dsp(p)};
}

namespace {

// The models are compiled together, one compiler run per thread (when the cache is cold; a run
// costs some 0.03 s before its first model and 0.1 to 0.2 s for each of MM's).
std::vector<std::shared_ptr<const model::evaluator>> evaluators_of(std::vector<model::design_model>& models,
                                                                   unsigned threads) {
  return model::make_evaluators(std::move(models), {}, threads);
}

// What not_modeled says of a design whose source returned no model without a no_model reason.
constexpr const char* no_reason = "the model source has none";

}  // namespace

void design_spaces(compile_result& r, const compile_options& o) {
  std::map<param_id, int64_t> values;
  for (const auto& p : r.polyhedral->kernel().params()) values[p.id()] = p.value();
  std::vector<model::design_model> models;
  std::vector<std::map<param_id, int64_t>> sizes;
  std::vector<size_t> modeled;
  std::vector<design> built;  // the designs not refused at verification
  std::vector<size_t> built_index;
  for (size_t d = 0; d < r.designs.size(); ++d)
    if (r.refused.empty() || r.refused[d].empty()) {
      built.push_back(r.designs[d]);
      built_index.push_back(d);
    }
  std::vector<std::string> why;
  std::vector<std::optional<model::design_model>> made_built = design_models(built, o.models, o.designs, o.threads, &why);
  std::vector<std::optional<model::design_model>> made(r.designs.size());
  r.not_modeled.assign(r.designs.size(), "");
  for (size_t d = 0; d < r.refused.size(); ++d)
    if (!r.refused[d].empty()) r.not_modeled[d] = "not built: " + r.refused[d];
  for (size_t b = 0; b < built.size(); ++b) {
    made[built_index[b]] = std::move(made_built[b]);
    r.not_modeled[built_index[b]] = std::move(why[b]);
  }
  for (size_t d = 0; d < r.designs.size(); ++d) {
    std::optional<model::design_model>& m = made[d];
    if (!m && r.not_modeled[d].empty()) r.not_modeled[d] = no_reason;
    if (!m) continue;
    std::map<param_id, int64_t> own;
    for (const auto& p : m->params)
      if (const auto* size = std::get_if<model::problem_size_origin>(&p.origin)) {
        auto v = values.find(size->param);
        if (v == values.end())
          throw error(fmt::format("the model of design {} ({}) has problem size \"{}\", which is no size of kernel \"{}\"",
                                  r.designs[d].name(), m->source, p.name, r.polyhedral->kernel().name()));
        own[size->param] = v->second;
      }
    models.push_back(std::move(*m));
    sizes.push_back(std::move(own));
    modeled.push_back(d);
  }
  std::vector<std::shared_ptr<const model::evaluator>> evaluators = evaluators_of(models, o.threads);
  for (size_t m = 0; m < modeled.size(); ++m) {
    r.spaces.emplace_back(evaluators[m], sizes[m], o.device);
    r.space_design.push_back(modeled[m]);
  }
}

std::optional<symbolic_architecture> symbolic_or_why(const design& d, std::string& why) {
  try {
    return build_symbolic_architecture(d);
  } catch (const error& e) {
    why = e.what();
    return std::nullopt;
  }
}

std::string none_modeled(const compile_result& r) {
  std::string out = "no design has a performance model";
  for (size_t d = 0; d < r.not_modeled.size(); ++d) {
    const std::string& why = r.not_modeled[d];
    if (why.empty() || why == no_reason) continue;
    std::string name = r.designs.at(d).name();
    // The builder's messages often start so (a refused design's after "not built: ").
    bool named = why.rfind("design " + name, 0) == 0 || why.rfind("not built: design " + name, 0) == 0;
    return out + " (" + (named ? why : "design " + name + ": " + why) + ")";
  }
  return out;
}

std::string symbolic_text(const design& d, const std::optional<symbolic_architecture>& a, const std::string& why) {
  if (a) return to_string(*a);
  return fmt::format("symbolic architecture of {}: not built: {}\n", d.name(), why);
}

}  // namespace sadsl::driver

namespace sadsl {

std::vector<std::optional<model::design_model>> design_models(const std::vector<design>& ds, const model_source& source,
                                                              const design_options& options, unsigned threads,
                                                              std::vector<std::string>* why) {
  std::vector<std::optional<model::design_model>> made(ds.size());
  std::vector<std::string> reasons(ds.size());
  driver::for_each_design(ds, options, source.is_concurrent() ? threads : 1, [&](size_t d, const design& twin) {
    try {
      made[d] = source(twin);
    } catch (const no_model& e) {
      reasons[d] = e.what();
    }
  });
  if (why) *why = std::move(reasons);
  return made;
}

}  // namespace sadsl
