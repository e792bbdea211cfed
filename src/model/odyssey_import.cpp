// Descriptor import: parameters and their relations, legality (Odyssey's bound_check), resources
// (est_resource), traffic (est_activity) and latency (est_latency, in odyssey_latency.cpp).
#include <map>

#include "odyssey_reader.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/files.hpp"
#include "sadsl/model/odyssey.hpp"

namespace sadsl::model {
namespace odyssey {
namespace {

bool has_tag(const json& param, const std::string& tag) {
  auto tags = param.find("tags");
  if (tags == param.end() || !tags->is_array()) return false;
  for (const json& t : *tags)
    if (t.is_string() && t.get<std::string>() == tag) return true;
  return false;
}

tile_level level_of_attr(const std::string& attr) {
  if (attr == "array_part_tiling_factor") return tile_level::array_partition;
  if (attr == "latency_tiling_factor") return tile_level::latency_hiding;
  return tile_level::simd;
}

// The kernel's objects for Odyssey's names: the binding's, or fresh identities named as in the
// descriptor (one per name, so i_t1 and i_t2 tile the same loop).
class identities {
public:
  identities(const reader& in, const odyssey_binding* binding) : in_(in), binding_(binding) {}

  loop_id loop(const std::string& name, const std::string& path) {
    return find(binding_ ? &binding_->loops : nullptr, loops_, name, "", path, "loop");
  }
  param_id size(const std::string& name, const std::string& path) {
    return find(binding_ ? &binding_->sizes : nullptr, sizes_, name, "", path, "problem size");
  }
  tensor_id tensor(const std::string& name, const std::string& module) {
    return find(binding_ ? &binding_->tensors : nullptr, tensors_, name, module, "/memory/" + module + "/array", "tensor");
  }

private:
  template <class Id>
  Id find(const std::map<std::string, Id>* bound, std::map<std::string, Id>& fresh, const std::string& name,
          const std::string& module, const std::string& path, const char* what) {
    if (bound) {
      auto found = bound->find(name);
      if (found == bound->end()) in_.fail(module, path, std::string("the binding has no ") + what + " \"" + name + "\"");
      return found->second;
    }
    auto found = fresh.find(name);
    if (found == fresh.end()) found = fresh.emplace(name, Id::fresh(name)).first;
    return found->second;
  }

  const reader& in_;
  const odyssey_binding* binding_;
  std::map<std::string, loop_id> loops_;
  std::map<std::string, param_id> sizes_;
  std::map<std::string, tensor_id> tensors_;
};

// Odyssey's attrs and structure as origins: loop_ub -> problem size; tiling factors -> the loop
// whose split_by chain holds them, at the attr's level; data_pack_factor -> the tensor, I/O group
// kind and level of the memory module that uses it.
std::vector<parameter_origin> origins(const reader& in, const std::vector<declared_parameter>& params,
                                      const odyssey_binding* binding) {
  identities ids(in, binding);
  std::map<std::string, const declared_parameter*> by_name;
  for (const declared_parameter& p : params) by_name[p.name] = &p;
  std::map<std::string, std::string> loops = loops_of(in, params);
  std::map<std::string, pack_use> packs = pack_uses(in, params);
  std::vector<parameter_origin> result;
  for (const declared_parameter& p : params) {
    if (p.attr == "loop_ub") {
      result.push_back(problem_size_origin{ids.size(p.name, p.path + "/name")});
    } else if (p.attr == "data_pack_factor") {
      auto use = packs.find(p.name);
      if (use == packs.end()) result.push_back(unused_pack_origin{});
      else result.push_back(pack_id{ids.tensor(use->second.array, use->second.module), use->second.group, use->second.level});
    } else {
      const declared_parameter& loop = *by_name.at(loops.at(p.name));
      result.push_back(factor_id{ids.loop(loop.name, loop.path + "/name"), level_of_attr(p.attr)});
    }
  }
  return result;
}

std::size_t index_of(const reader& in, const design_model& model, const json& name, const std::string& where) {
  if (!name.is_string()) in.fail("", where, "expected a parameter name");
  for (std::size_t i = 0; i < model.params.size(); ++i)
    if (model.params[i].name == name.get<std::string>()) return i;
  in.fail("", where, "unknown parameter \"" + name.get<std::string>() + "\"");
}

std::vector<std::size_t> name_list(const reader& in, const design_model& model, const json& param,
                                   const std::string& key, const std::string& path) {
  std::vector<std::size_t> indices;
  auto list = param.find(key);
  if (list == param.end()) return indices;
  if (!list->is_array()) in.fail("", path + "/" + key, "expected a list of parameter names");
  for (std::size_t i = 0; i < list->size(); ++i)
    indices.push_back(index_of(in, model, (*list)[i], path + "/" + key + "/" + std::to_string(i)));
  return indices;
}

// Odyssey's bound_check: lower bounds always, upper bounds except for first-level tiles (which
// pad), power-of-two tags.
void add_bound_constraints(design_model& model, std::size_t index) {
  const parameter& p = model.params[index];
  expr value = expr::parameter(index, p.name);
  if (p.lower_bound)
    model.constraints.push_back({constraint::kind::at_least, value, *p.lower_bound, p.name + " >= " + to_string(*p.lower_bound)});
  if (p.upper_bound && p.role() != parameter_role::tile)
    model.constraints.push_back({constraint::kind::at_most, value, *p.upper_bound, p.name + " <= " + to_string(*p.upper_bound)});
  if (p.power_of_two) model.constraints.push_back({constraint::kind::power_of_two, value, expr(), p.name + " is a power of two"});
}

void import_parameters(reader& in, design_model& model, const odyssey_binding* binding) {
  std::vector<declared_parameter> declared = declared_parameters(in);
  std::vector<parameter_origin> origin = origins(in, declared, binding);
  const json& params = in.root()["params"];
  for (std::size_t i = 0; i < declared.size(); ++i) {
    parameter p;
    p.name = declared[i].name;
    p.origin = origin[i];
    p.power_of_two = has_tag(params[i], "power_of_two");
    in.add_parameter(p.name, i);
    model.params.push_back(std::move(p));
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    std::string path = declared[i].path;
    parameter& p = model.params[i];
    if (params[i].contains("bounds")) {
      const json& bounds = params[i]["bounds"];
      if (!bounds.is_array() || bounds.size() != 2) in.fail("", path + "/bounds", "expected [lower, upper]");
      p.lower_bound = in.expression_value(bounds[0], "", path + "/bounds/0");
      p.upper_bound = in.expression_value(bounds[1], "", path + "/bounds/1");
    }
    if (has_tag(params[i], "auto_infer")) {
      if (!p.lower_bound) in.fail("", path, "inferred parameter \"" + p.name + "\" has no bounds");
      p.inferred = inference{*p.lower_bound, *p.upper_bound};
    }
    p.divides = name_list(in, model, params[i], "divisors", path);
    p.multiple_of = name_list(in, model, params[i], "multiples", path);
    if (params[i].contains("split_by")) p.split_by = index_of(in, model, params[i]["split_by"], path + "/split_by");
    add_bound_constraints(model, i);
  }
}

int element_bytes(const reader& in, const json& owner, const std::string& module, const std::string& path) {
  std::string type = in.string_member(owner, "ele_type", module, path);
  if (type != "float") in.fail(module, path + "/ele_type", "unsupported element type \"" + type + "\" (only float)");
  return 4;
}

// Latency hiding (FP32 accumulation): when the PE keeps a local buffer, the product of the
// latency tiling factors must cover 8 x SIMD so the reduction pipeline never stalls.
void add_latency_hiding(const reader& in, design_model& model) {
  const json& memory = in.member(in.root(), "memory", "", "");
  if (!memory.contains("PE")) return;
  element_bytes(in, memory["PE"], "PE", "/memory/PE");
  expr factors = 1;
  std::optional<expr> simd;
  std::string text;
  for (std::size_t i = 0; i < model.params.size(); ++i) {
    const parameter& p = model.params[i];
    if (p.role() == parameter_role::latency_tile) {
      factors = factors * expr::parameter(i, p.name);
      text += (text.empty() ? "" : " * ") + p.name;
    }
    if (p.role() == parameter_role::simd) simd = expr::parameter(i, p.name);
  }
  if (!simd) in.fail("PE", "/params", "the PE has a local buffer but no SIMD_tiling_factor parameter");
  model.constraints.push_back({constraint::kind::at_least, factors, expr(8) * *simd,
                               "latency hiding: " + text + " >= 8 * " + to_string(*simd)});
}

expr product_of_dims(const reader& in, const json& dims, const std::string& module, const std::string& path) {
  if (!dims.is_array()) in.fail(module, path, "expected a list");
  expr product = 1;
  for (std::size_t i = 0; i < dims.size(); ++i)
    product = product * in.count_value(dims[i], module, path + "/" + std::to_string(i));
  return product;
}

// est_resource: BRAM18K of one buffer = ceil(bits per word / 36) x ceil(words / 512).
expr bram18k_of(const reader& in) {
  expr total = 0;
  for (const auto& [name, memory] : in.member(in.root(), "memory", "", "").items()) {
    if (is_merged_drain_module(in, name)) continue;
    std::string path = "/memory/" + name;
    expr bytes = in.int_member(memory, "ele_size", name, path, 1, 64);
    expr words = in.count(memory, "buf_size", name, path);
    expr pack = memory.contains("data_pack_factor_inter") ? in.expression(memory, "data_pack_factor_inter", name, path) : 1;
    expr unit = ceil(bytes * 8 * pack / 36) * ceil(words / pack / 512);
    expr copies = in.int_member(memory, "double_buffer", name, path) ? 2 : 1;
    total = total + unit * copies * in.count(memory, "num", name, path);
  }
  return total;
}

// A rough LUT estimate (Odyssey has none): FP32 multiply-add lanes, PE control, I/O modules.
expr lut_of(const reader& in, const expr& pe_count, const expr& lanes) {
  expr io_instances = 0;
  for (const auto& [name, io] : in.member(in.root(), "io", "", "").items())
    io_instances = io_instances + product_of_dims(in, in.member(io, "dims", name, "/io/" + name), name, "/io/" + name + "/dims");
  return pe_count * lanes * 350 + pe_count * 200 + io_instances * 300;
}

void import_resources(const reader& in, design_model& model, expr offchip_elements) {
  const json& pe = in.member(in.member(in.root(), "compute", "", ""), "PE", "PE", "/compute");
  expr count = in.count(pe, "num", "PE", "/compute/PE");
  expr lanes = in.count(pe, "unroll_factor", "PE", "/compute/PE");
  int bytes = element_bytes(in, pe, "PE", "/compute/PE");
  model.dsp = count * lanes * 5;  // FP32 multiply-add: 5 DSPs per lane
  model.bram18k = bram18k_of(in);
  model.uram = 0;
  model.lut = lut_of(in, count, lanes);
  // FF of the FP32 multiply-add each lane holds (docs/modeling.md, "Resources": multiply 143,
  // add 205); the descriptor says nothing of FIFOs or register buffers, so only the operators.
  model.ff = count * lanes * 348;
  model.offchip_bytes = offchip_elements * bytes;
}

}  // namespace
}  // namespace odyssey

design_model import_odyssey_descriptor(const nlohmann::ordered_json& descriptor, const std::string& source,
                                       std::string model_name, const odyssey_binding* binding) {
  odyssey::reader in(descriptor, source);
  if (!descriptor.is_object()) in.fail("", "", "expected a JSON object");
  design_model model;
  model.name = std::move(model_name);
  model.source = "AutoSA descriptor " + source;
  odyssey::import_parameters(in, model, binding);
  odyssey::add_latency_hiding(in, model);
  odyssey::latency_part latency = odyssey::import_latency(in);
  model.modules = std::move(latency.modules);
  odyssey::import_resources(in, model, latency.offchip_elements);
  return model;
}

design_model import_odyssey_descriptor(const std::filesystem::path& file, std::string model_name,
                                       const odyssey_binding* binding) {
  nlohmann::ordered_json descriptor = read_json_file(file, "descriptor");
  if (model_name.empty()) model_name = file.stem().string();
  return import_odyssey_descriptor(descriptor, file.string(), std::move(model_name), binding);
}

}  // namespace sadsl::model
