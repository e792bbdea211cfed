#include "steps.hpp"

#include <memory>

#include <fmt/format.h>

#include "sadsl/comm/executor.hpp"
#include "sadsl/compute/verify.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/files.hpp"
#include "sadsl/poly/dump.hpp"
#include "sadsl/poly/operations.hpp"

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

void verify_designs(const kernel& k, const std::vector<design>& ds, int64_t verify_size) {
  if (verify_size < 1) throw error(fmt::format("compile_options::verify_size = {}, but sizes are at least 1", verify_size));
  scoped_sizes sizes(k, [&](int64_t n, int64_t value) { return std::min(value, verify_size + 2 * n); });
  for (const auto& d : ds) {
    design_point point = sample_point(d);
    std::string problem = verify_design(d, point);
    if (problem.empty()) problem = verify_architecture(build_architecture(d, {point, {}, false}));
    if (!problem.empty()) throw internal_error("verification of kernel \"" + k.name() + "\" failed: " + problem);
  }
}

tune::workload workload_of(const program& p) {
  operation_count ops = count_operations(p);
  return {ops.operations, ops.floating_point};
}

void design_spaces(compile_result& r, const compile_options& o) {
  std::map<param_id, int64_t> values;
  for (const auto& p : r.polyhedral->kernel().params()) values[p.id()] = p.value();
  for (size_t d = 0; d < r.designs.size(); ++d) {
    std::optional<model::design_model> m = o.models(r.designs[d]);
    if (!m) continue;
    std::map<param_id, int64_t> sizes;
    for (const auto& p : m->params)
      if (const auto* size = std::get_if<model::problem_size_origin>(&p.origin)) {
        auto v = values.find(size->param);
        if (v == values.end())
          throw error(fmt::format("the model of design {} ({}) has problem size \"{}\", which is no size of kernel \"{}\"",
                                  r.designs[d].name(), m->source, p.name, r.polyhedral->kernel().name()));
        sizes[size->param] = v->second;
      }
    r.spaces.emplace_back(std::make_shared<const model::evaluator>(std::move(*m)), sizes, o.device);
    r.space_design.push_back(d);
  }
}

}  // namespace sadsl::driver
