#include "sadsl/model/design_model.hpp"

#include <nlohmann/json.hpp>

#include "sadsl/error.hpp"

namespace sadsl::model {

namespace {
template <class... F>
struct overloaded : F... {
  using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

// An identity's name, or a placeholder for an identity that names no object.
std::string printed(const std::string& name, bool valid) { return valid ? name : "(unnamed)"; }
}  // namespace

parameter_role role_of(const parameter_origin& origin) {
  return std::visit(overloaded{
                        [](const problem_size_origin&) { return parameter_role::problem_size; },
                        [](const factor_id& f) {
                          switch (f.level) {
                            case tile_level::array_partition: return parameter_role::tile;
                            case tile_level::latency_hiding: return parameter_role::latency_tile;
                            case tile_level::simd: return parameter_role::simd;
                          }
                          return parameter_role::tile;
                        },
                        [](const pack_id&) { return parameter_role::pack; },
                        [](const unused_pack_origin&) { return parameter_role::pack; },
                    },
                    origin);
}

std::string describe(const parameter_origin& origin) {
  return std::visit(
      overloaded{
          [](const problem_size_origin& p) { return "problem size " + printed(p.param.name(), p.param.valid()); },
          [](const factor_id& f) {
            return "tiling factor of loop " + printed(f.loop.name(), f.loop.valid()) + " (" +
                   std::string(level_name(f.level)) + ")";
          },
          [](const pack_id& p) {
            return "packing factor of tensor " + printed(p.tensor.name(), p.tensor.valid()) + " (" +
                   std::string(io_group_kind_name(p.group)) + " group, I/O level " + std::to_string(p.level) + ")";
          },
          [](const unused_pack_origin&) { return std::string("packing factor used by no I/O module"); },
      },
      origin);
}

nlohmann::ordered_json origin_json(const parameter_origin& origin) {
  nlohmann::ordered_json j = std::visit(
      overloaded{
          [](const problem_size_origin& p) {
            return nlohmann::ordered_json{{"kind", "problem_size"}, {"param", p.param.name()}};
          },
          [](const factor_id& f) {
            return nlohmann::ordered_json{{"kind", "tiling_factor"}, {"loop", f.loop.name()}, {"level", level_name(f.level)}};
          },
          [](const pack_id& p) {
            return nlohmann::ordered_json{{"kind", "packing_factor"}, {"tensor", p.tensor.name()},
                                          {"group", io_group_kind_name(p.group)}, {"io_level", p.level}};
          },
          [](const unused_pack_origin&) { return nlohmann::ordered_json{{"kind", "packing_factor"}, {"tensor", nullptr}}; },
      },
      origin);
  j["description"] = describe(origin);
  return j;
}

std::size_t design_model::parameter_index(const std::string& wanted) const {
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i].name == wanted) return i;
  throw error("model \"" + name + "\" has no parameter \"" + wanted + "\"");
}

expr design_model::param(const std::string& wanted) const {
  return expr::parameter(parameter_index(wanted), wanted);
}

namespace {
// max over the given module phase, in module order (Python's max keeps the first of equals).
template <class Select>
expr max_over(const design_model& model, Select select) {
  std::optional<expr> result;
  for (const module_latency& module : model.modules) {
    const loop_tree* tree = select(module);
    if (!tree) continue;
    expr c = cost(*tree);
    result = result ? max(*result, c) : c;
  }
  return result ? *result : expr(0.0);
}
}  // namespace

metric_expressions metrics_of(const design_model& model) {
  metric_expressions m;
  m.latency_prologue = max_over(model, [](const module_latency& mod) { return mod.prologue ? &*mod.prologue : nullptr; });
  m.latency_main = max_over(model, [](const module_latency& mod) { return &mod.main; });
  m.latency_epilogue = max_over(model, [](const module_latency& mod) { return mod.epilogue ? &*mod.epilogue : nullptr; });
  m.latency = m.latency_prologue + m.latency_main + m.latency_epilogue;
  m.dsp = model.dsp;
  m.bram18k = model.bram18k;
  m.uram = model.uram;
  m.lut = model.lut;
  m.ff = model.ff;
  m.offchip_bytes = model.offchip_bytes;
  return m;
}

}  // namespace sadsl::model
