// Descriptor import: parameters and their relations, legality (Odyssey's bound_check), resources
// (est_resource), traffic (est_activity) and latency (est_latency, in odyssey_latency.cpp).
#include <fstream>

#include "odyssey_reader.hpp"
#include "sadsl/error.hpp"
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

parameter_role role_from_attr(const reader& in, const std::string& attr, const std::string& path) {
  if (attr == "loop_ub") return parameter_role::problem_size;
  if (attr == "array_part_tiling_factor") return parameter_role::tile;
  if (attr == "latency_tiling_factor") return parameter_role::latency_tile;
  if (attr == "SIMD_tiling_factor") return parameter_role::simd;
  if (attr == "data_pack_factor") return parameter_role::pack;
  in.fail("", path + "/attr", "unknown parameter attr \"" + attr + "\"");
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
  if (p.upper_bound && !p.name.ends_with("t1"))
    model.constraints.push_back({constraint::kind::at_most, value, *p.upper_bound, p.name + " <= " + to_string(*p.upper_bound)});
  if (p.power_of_two) model.constraints.push_back({constraint::kind::power_of_two, value, expr(), p.name + " is a power of two"});
}

void import_parameters(reader& in, design_model& model) {
  const json& params = in.member(in.root(), "params", "", "");
  if (!params.is_array()) in.fail("", "/params", "expected a list");
  for (std::size_t i = 0; i < params.size(); ++i) {
    std::string path = "/params/" + std::to_string(i);
    parameter p;
    p.name = in.string_member(params[i], "name", "", path);
    p.role = role_from_attr(in, in.string_member(params[i], "attr", "", path), path);
    p.power_of_two = has_tag(params[i], "power_of_two");
    in.add_parameter(p.name, i);
    model.params.push_back(std::move(p));
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    std::string path = "/params/" + std::to_string(i);
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
    if (p.role == parameter_role::latency_tile) {
      factors = factors * expr::parameter(i, p.name);
      text += (text.empty() ? "" : " * ") + p.name;
    }
    if (p.role == parameter_role::simd) simd = expr::parameter(i, p.name);
  }
  if (!simd) in.fail("PE", "/params", "the PE has a local buffer but no SIMD_tiling_factor parameter");
  model.constraints.push_back({constraint::kind::at_least, factors, expr(8) * *simd,
                               "latency hiding: " + text + " >= 8 * " + to_string(*simd)});
}

expr product_of_dims(const reader& in, const json& dims, const std::string& module, const std::string& path) {
  if (!dims.is_array()) in.fail(module, path, "expected a list");
  expr product = 1;
  for (std::size_t i = 0; i < dims.size(); ++i)
    product = product * in.expression_value(dims[i], module, path + "/" + std::to_string(i));
  return product;
}

// est_resource: BRAM18K of one buffer = ceil(bits per word / 36) x ceil(words / 512).
expr bram18k_of(const reader& in) {
  expr total = 0;
  for (const auto& [name, memory] : in.member(in.root(), "memory", "", "").items()) {
    if (is_merged_drain_module(in, name)) continue;
    std::string path = "/memory/" + name;
    expr bytes = in.int_member(memory, "ele_size", name, path);
    expr words = in.expression(memory, "buf_size", name, path);
    expr pack = memory.contains("data_pack_factor_inter") ? in.expression(memory, "data_pack_factor_inter", name, path) : 1;
    expr unit = ceil(bytes * 8 * pack / 36) * ceil(words / pack / 512);
    expr copies = in.int_member(memory, "double_buffer", name, path) ? 2 : 1;
    total = total + unit * copies * in.expression(memory, "num", name, path);
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
  expr count = in.expression(pe, "num", "PE", "/compute/PE");
  expr lanes = in.expression(pe, "unroll_factor", "PE", "/compute/PE");
  int bytes = element_bytes(in, pe, "PE", "/compute/PE");
  model.dsp = count * lanes * 5;  // FP32 multiply-add: 5 DSPs per lane
  model.bram18k = bram18k_of(in);
  model.uram = 0;
  model.lut = lut_of(in, count, lanes);
  model.offchip_bytes = offchip_elements * bytes;
}

}  // namespace
}  // namespace odyssey

design_model import_odyssey_descriptor(const nlohmann::ordered_json& descriptor, const std::string& source,
                                       std::string model_name) {
  odyssey::reader in(descriptor, source);
  if (!descriptor.is_object()) in.fail("", "", "expected a JSON object");
  design_model model;
  model.name = std::move(model_name);
  odyssey::import_parameters(in, model);
  odyssey::add_latency_hiding(in, model);
  odyssey::latency_part latency = odyssey::import_latency(in);
  model.modules = std::move(latency.modules);
  odyssey::import_resources(in, model, latency.offchip_elements);
  return model;
}

design_model import_odyssey_descriptor(const std::filesystem::path& file, std::string model_name) {
  std::ifstream stream(file);
  if (!stream) throw error("cannot read descriptor " + file.string());
  nlohmann::ordered_json descriptor;
  try {
    descriptor = nlohmann::ordered_json::parse(stream);
  } catch (const nlohmann::json::parse_error& e) {
    throw error(file.filename().string() + ": invalid JSON: " + e.what());
  }
  if (model_name.empty()) model_name = file.stem().string();
  return import_odyssey_descriptor(descriptor, file.filename().string(), std::move(model_name));
}

}  // namespace sadsl::model
