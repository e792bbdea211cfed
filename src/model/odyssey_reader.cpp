#include "odyssey_reader.hpp"

#include "sadsl/error.hpp"

namespace sadsl::model::odyssey {

reader::reader(const json& root, std::string source) : root_(root), source_(std::move(source)) {}

void reader::fail(const std::string& module, const std::string& path, const std::string& what) const {
  std::string where = source_ + ": ";
  if (!module.empty()) where += "module \"" + module + "\": ";
  throw error(where + (path.empty() ? "/" : path) + ": " + what);
}

const json& reader::member(const json& object, const std::string& key, const std::string& module,
                           const std::string& path) const {
  if (!object.is_object()) fail(module, path, "expected an object");
  auto found = object.find(key);
  if (found == object.end()) fail(module, path, "missing key \"" + key + "\"");
  return *found;
}

std::string reader::string_member(const json& object, const std::string& key, const std::string& module,
                                  const std::string& path) const {
  const json& value = member(object, key, module, path);
  if (!value.is_string()) fail(module, path + "/" + key, "expected a string");
  return value.get<std::string>();
}

int reader::int_member(const json& object, const std::string& key, const std::string& module, const std::string& path,
                       int lowest, int highest) const {
  const json& value = member(object, key, module, path);
  std::string where = path + "/" + key;
  if (!value.is_number_integer()) fail(module, where, "expected an integer");
  // Compare as 64-bit values: get<int>() of a larger number would wrap.
  bool in_range = value.is_number_unsigned()
                      ? highest >= 0 && value.get<std::uint64_t>() <= static_cast<std::uint64_t>(highest) &&
                            (lowest <= 0 || value.get<std::uint64_t>() >= static_cast<std::uint64_t>(lowest))
                      : value.get<std::int64_t>() >= lowest && value.get<std::int64_t>() <= highest;
  if (!in_range)
    fail(module, where, "expected an integer from " + std::to_string(lowest) + " to " + std::to_string(highest) + ", not " +
                            value.dump());
  return value.get<int>();
}

expr reader::parse(const std::string& text, const std::string& module, const std::string& path) const {
  try {
    return parse_expression(text, [this](std::string_view name) -> const expr* {
      auto found = parameters_.find(name);
      return found == parameters_.end() ? nullptr : &found->second;
    });
  } catch (const error& e) {
    fail(module, path, e.what());
  }
}

expr reader::expression(const json& object, const std::string& key, const std::string& module,
                        const std::string& path) const {
  return expression_value(member(object, key, module, path), module, path + "/" + key);
}

expr reader::expression_value(const json& value, const std::string& module, const std::string& path) const {
  if (value.is_number()) return expr(value.get<double>());
  if (!value.is_string()) fail(module, path, "expected an expression string");
  return parse(value.get<std::string>(), module, path);
}

expr reader::count(const json& object, const std::string& key, const std::string& module, const std::string& path) const {
  return count_value(member(object, key, module, path), module, path + "/" + key);
}

expr reader::count_value(const json& value, const std::string& module, const std::string& path) const {
  expr e = expression_value(value, module, path);
  // A negative or zero constant count would make resources negative and the design "fit".
  if (e.is_constant() && !(e.constant_value() >= 1))
    fail(module, path, "expected a count of at least 1, not " + to_string(e));
  return e;
}

void reader::add_parameter(const std::string& name, std::size_t index) {
  parameters_.insert_or_assign(name, expr::parameter(index, name));
}

namespace {
// Odyssey keys output drain modules by array: a drain whose buffer size and instance count are
// textually those of another output module of the same array is merged into it.
std::map<std::string, bool> find_merged_drains(const reader& in) {
  std::map<std::string, std::pair<std::string, std::string>> drains;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> outputs;
  for (const auto& [name, memory] : in.member(in.root(), "memory", "", "").items()) {
    if (!name.ends_with("_out")) continue;
    std::string path = "/memory/" + name;
    std::string array = in.string_member(memory, "array", name, path);
    std::pair item{in.member(memory, "buf_size", name, path).dump(), in.member(memory, "num", name, path).dump()};
    if (name.find("drain") != std::string::npos) drains[array] = item;
    else outputs[array].push_back(item);
  }
  std::map<std::string, bool> merged;
  for (const auto& [array, drain] : drains) {
    merged[array] = false;
    for (const auto& other : outputs[array]) merged[array] = merged[array] || other == drain;
  }
  return merged;
}
}  // namespace

const std::map<std::string, bool>& reader::merged_drains() const {
  if (!merged_drains_) merged_drains_ = find_merged_drains(*this);
  return *merged_drains_;
}

bool is_merged_drain_module(const reader& in, const std::string& module) {
  auto at = module.find("_drain_IO");
  if (at == std::string::npos) return false;
  const auto& merged = in.merged_drains();
  auto found = merged.find(module.substr(0, at));
  return found != merged.end() && found->second;
}

}  // namespace sadsl::model::odyssey
