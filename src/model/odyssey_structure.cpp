// What a descriptor's structure says about its parameters: which loop each tiling factor tiles
// (the split_by chains from the loop_ub parameters) and which tensor's I/O group and level each
// packing factor serves (the memory modules that use it).
#include <set>

#include "odyssey_reader.hpp"

namespace sadsl::model::odyssey {

namespace {

bool is_tiling_attr(const std::string& attr) {
  return attr == "array_part_tiling_factor" || attr == "latency_tiling_factor" || attr == "SIMD_tiling_factor";
}

const std::set<std::string>& known_attrs() {
  static const std::set<std::string> attrs{"loop_ub", "array_part_tiling_factor", "latency_tiling_factor",
                                           "SIMD_tiling_factor", "data_pack_factor"};
  return attrs;
}

// The I/O level of an AutoSA I/O module: its name says it ("A_IO_L2_in" is level 2).
int io_level(const reader& in, const std::string& module) {
  auto at = module.find("_IO_L");
  std::size_t digits = at == std::string::npos ? 0 : at + 5;
  std::size_t end = digits;
  while (end < module.size() && end - digits < 3 && std::isdigit(static_cast<unsigned char>(module[end]))) ++end;
  if (at == std::string::npos || end == digits)
    in.fail(module, "/memory/" + module, "the module uses a packing factor but its name gives no I/O level (_IO_L<n>)");
  return std::stoi(module.substr(digits, end - digits));
}

// Arrays that some memory module writes out (attr `in` == 0): their I/O groups carry results.
std::set<std::string> written_arrays(const reader& in) {
  std::set<std::string> written;
  const json& attrs = in.member(in.root(), "attr", "", "");
  for (const auto& [name, memory] : in.member(in.root(), "memory", "", "").items()) {
    std::string path = "/memory/" + name;
    std::string array = in.string_member(memory, "array", name, path);
    if (in.int_member(in.member(attrs, name, name, "/attr"), "in", name, "/attr/" + name) == 0) written.insert(array);
  }
  return written;
}

}  // namespace

std::vector<declared_parameter> declared_parameters(const reader& in) {
  const json& params = in.member(in.root(), "params", "", "");
  if (!params.is_array()) in.fail("", "/params", "expected a list");
  std::vector<declared_parameter> declared;
  std::map<std::string, std::string> first_path;
  for (std::size_t i = 0; i < params.size(); ++i) {
    std::string path = "/params/" + std::to_string(i);
    declared_parameter p{in.string_member(params[i], "name", "", path), in.string_member(params[i], "attr", "", path), path, i};
    if (!known_attrs().count(p.attr)) in.fail("", path + "/attr", "unknown parameter attr \"" + p.attr + "\"");
    auto [earlier, fresh] = first_path.emplace(p.name, path);
    if (!fresh) in.fail("", path + "/name", "parameter \"" + p.name + "\" is declared twice (also at " + earlier->second + ")");
    declared.push_back(std::move(p));
  }
  return declared;
}

std::map<std::string, std::string> loops_of(const reader& in, const std::vector<declared_parameter>& params) {
  std::map<std::string, const declared_parameter*> by_name;
  for (const declared_parameter& p : params) by_name[p.name] = &p;
  const json& list = in.member(in.root(), "params", "", "");
  std::map<std::string, std::string> loop;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].attr != "loop_ub" || !list[i].contains("split_by")) continue;
    loop[params[i].name] = params[i].name;
    std::string path = params[i].path;
    for (const json* next = &list[i]["split_by"]; next;) {
      if (!next->is_string()) in.fail("", path + "/split_by", "expected a parameter name");
      auto found = by_name.find(next->get<std::string>());
      if (found == by_name.end()) in.fail("", path + "/split_by", "unknown parameter \"" + next->get<std::string>() + "\"");
      const declared_parameter& factor = *found->second;
      if (!is_tiling_attr(factor.attr)) in.fail("", path + "/split_by", "\"" + factor.name + "\" is not a tiling factor");
      auto [other, fresh] = loop.emplace(factor.name, params[i].name);
      if (!fresh) in.fail("", path + "/split_by", "\"" + factor.name + "\" is on the chains of loops \"" + other->second +
                                                      "\" and \"" + params[i].name + "\"");
      path = factor.path;
      const json& entry = list[factor.index];
      next = entry.contains("split_by") ? &entry["split_by"] : nullptr;
    }
  }
  for (const declared_parameter& p : params)
    if (is_tiling_attr(p.attr) && !loop.count(p.name))
      in.fail("", p.path, "tiling factor \"" + p.name + "\" is on no loop's split_by chain");
  return loop;
}

std::map<std::string, pack_use> pack_uses(const reader& in, const std::vector<declared_parameter>& params) {
  std::set<std::string> packs;
  for (const declared_parameter& p : params)
    if (p.attr == "data_pack_factor") packs.insert(p.name);
  std::set<std::string> written = written_arrays(in);
  std::map<std::string, pack_use> uses;
  for (const auto& [name, memory] : in.member(in.root(), "memory", "", "").items()) {
    auto inter = memory.find("data_pack_factor_inter");
    if (inter == memory.end() || !inter->is_string() || !packs.count(inter->get<std::string>())) continue;
    pack_use use;
    use.array = in.string_member(memory, "array", name, "/memory/" + name);
    // AutoSA names drain modules "<array>_drain_IO_L<n>_out": the output group. Other modules of
    // an array that is written carry intermediate results (flow group); the rest read.
    use.group = name.find("_drain_") != std::string::npos ? io_group_kind::output
                : written.count(use.array)                ? io_group_kind::flow
                                                          : io_group_kind::read;
    use.level = io_level(in, name);
    use.module = name;
    auto [earlier, fresh] = uses.emplace(inter->get<std::string>(), use);
    const pack_use& first = earlier->second;
    if (!fresh && (first.array != use.array || first.group != use.group || first.level != use.level))
      in.fail(name, "/memory/" + name + "/data_pack_factor_inter",
              "packing factor \"" + inter->get<std::string>() + "\" is also used by module \"" + first.module +
                  "\" of another I/O group or level");
  }
  return uses;
}

}  // namespace sadsl::model::odyssey
