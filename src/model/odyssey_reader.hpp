#pragma once
// Internal: checked access to a descriptor, with errors naming the file, module and JSON path.
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sadsl/model/design_model.hpp"

namespace sadsl::model::odyssey {

using json = nlohmann::ordered_json;

class reader {
public:
  reader(const json& root, std::string source);

  [[noreturn]] void fail(const std::string& module, const std::string& path, const std::string& what) const;
  /// root[path...]: the member `key` of `object` (which lives at `path`), or an error.
  const json& member(const json& object, const std::string& key, const std::string& module,
                     const std::string& path) const;
  std::string string_member(const json& object, const std::string& key, const std::string& module,
                            const std::string& path) const;
  /// An integer in [lowest, highest] (the default range is what the flags and directions use).
  int int_member(const json& object, const std::string& key, const std::string& module, const std::string& path,
                 int lowest = -1, int highest = 1) const;
  /// Parses the expression string at object[key] over the model's parameters.
  expr expression(const json& object, const std::string& key, const std::string& module,
                  const std::string& path) const;
  /// Parses a JSON value that is an expression string (or a number).
  expr expression_value(const json& value, const std::string& module, const std::string& path) const;
  expr parse(const std::string& text, const std::string& module, const std::string& path) const;
  /// An expression that counts something (PEs, lanes, instances, words): a constant must be >= 1.
  expr count(const json& object, const std::string& key, const std::string& module, const std::string& path) const;
  expr count_value(const json& value, const std::string& module, const std::string& path) const;

  void add_parameter(const std::string& name, std::size_t index);
  const json& root() const { return root_; }
  const std::string& source() const { return source_; }
  /// Per array, whether its drain module is merged into an output module (computed once).
  const std::map<std::string, bool>& merged_drains() const;

private:
  mutable std::optional<std::map<std::string, bool>> merged_drains_;
  const json& root_;
  std::string source_;
  std::map<std::string, expr, std::less<>> parameters_;
};

/// Per-module latency loop trees and the off-chip element count, as Odyssey computes them.
struct latency_part {
  std::vector<module_latency> modules;
  expr offchip_elements;
};
latency_part import_latency(const reader& in);

/// True for array names whose drain module shares its buffer with an output module (Odyssey
/// counts it once and drops the drain from latency and resources).
bool is_merged_drain_module(const reader& in, const std::string& module);

/// One entry of /params, checked: a unique name and a known attr.
struct declared_parameter {
  std::string name;
  std::string attr;
  std::string path;  ///< "/params/<n>"
  std::size_t index = 0;
};
std::vector<declared_parameter> declared_parameters(const reader& in);

/// The loop (Odyssey's name: the loop_ub parameter a split_by chain starts from) that each
/// tiling factor tiles, and the loop of each loop_ub that starts a chain (itself).
std::map<std::string, std::string> loops_of(const reader& in, const std::vector<declared_parameter>& params);

/// Where a packing factor is used: as `data_pack_factor_inter` of the I/O buffer `module` of
/// `array` at I/O `level`, in an I/O group of `group` kind.
struct pack_use {
  std::string array;
  io_group_kind group = io_group_kind::read;
  int level = 1;
  std::string module;
};
std::map<std::string, pack_use> pack_uses(const reader& in, const std::vector<declared_parameter>& params);

}  // namespace sadsl::model::odyssey
