#pragma once
// Internal: checked access to a descriptor, with errors naming the file, module and JSON path.
#include <map>
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
  int int_member(const json& object, const std::string& key, const std::string& module,
                 const std::string& path) const;
  /// Parses the expression string at object[key] over the model's parameters.
  expr expression(const json& object, const std::string& key, const std::string& module,
                  const std::string& path) const;
  /// Parses a JSON value that is an expression string (or a number).
  expr expression_value(const json& value, const std::string& module, const std::string& path) const;
  expr parse(const std::string& text, const std::string& module, const std::string& path) const;

  void add_parameter(const std::string& name, std::size_t index);
  const json& root() const { return root_; }
  const std::string& source() const { return source_; }

private:
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

}  // namespace sadsl::model::odyssey
