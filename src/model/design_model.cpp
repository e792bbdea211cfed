#include "sadsl/model/design_model.hpp"

#include "sadsl/error.hpp"

namespace sadsl::model {

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
  m.offchip_bytes = model.offchip_bytes;
  return m;
}

}  // namespace sadsl::model
