#include "options.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>

#include "status.hpp"

namespace sadsl::cli {

namespace {
[[noreturn]] void bad(const std::string& command, const std::string& option, const std::string& what) {
  throw usage_error("sadsl " + command + ": --" + option + ": " + what);
}
}  // namespace

std::vector<std::pair<std::string, std::int64_t>> parse_assignments(const std::string& command, const std::string& option,
                                                                    const std::string& text) {
  std::vector<std::pair<std::string, std::int64_t>> result;
  std::set<std::string> seen;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    auto eq = item.find('=');
    std::int64_t value = 0;
    const char* begin = item.data() + (eq == std::string::npos ? 0 : eq + 1);
    const char* end = item.data() + item.size();
    auto [stop, ec] = std::from_chars(begin, end, value);
    if (eq == std::string::npos || eq == 0 || (ec != std::errc() && ec != std::errc::result_out_of_range) || stop != end)
      bad(command, option, "\"" + item + "\" is not name=integer");
    if (ec == std::errc::result_out_of_range || value < 1 || value > max_parameter_value)
      bad(command, option, "\"" + item + "\": values must be from 1 to 2^53 (" + std::to_string(max_parameter_value) + ")");
    std::string name = item.substr(0, eq);
    if (!seen.insert(name).second) bad(command, option, "\"" + name + "\" is given twice");
    result.emplace_back(name, value);
  }
  if (result.empty()) bad(command, option, "expected name=integer,...");
  return result;
}

std::uint64_t parse_whole(const std::string& command, const std::string& option, const std::string& text,
                          std::uint64_t highest) {
  std::uint64_t value = 0;
  auto [stop, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || ec != std::errc() || stop != text.data() + text.size() || value > highest)
    bad(command, option, "\"" + text + "\" is not a whole number from 0 to " + std::to_string(highest));
  return value;
}

double parse_number(const std::string& command, const std::string& option, const std::string& text, bool positive) {
  char* end = nullptr;
  double value = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  bool whole_text = !text.empty() && end == text.c_str() + text.size() && !std::isspace(static_cast<unsigned char>(text[0]));
  if (!whole_text || !std::isfinite(value) || value < 0 || (positive && value == 0))
    bad(command, option, "\"" + text + "\" is not a " + (positive ? "positive" : "non-negative") + " number");
  return value;
}

tune::device parse_device(const std::string& command, const std::string& text) {
  try {
    return tune::find_device(text.empty() ? "u250" : text);
  } catch (const error& e) {
    throw error("sadsl " + command + ": --device: " + e.what());
  }
}

std::vector<double> point_from(const std::string& command, const std::string& sizes, const std::string& points,
                               const model::design_model& model) {
  std::vector<double> point(model.params.size());
  std::vector<bool> given(model.params.size(), false);
  for (auto [option, text] : {std::pair{"size", &sizes}, std::pair{"point", &points}}) {
    for (const auto& [name, value] : parse_assignments(command, option, *text)) {
      std::size_t index = 0;
      try {
        index = model.parameter_index(name);
      } catch (const error& e) {
        throw error("sadsl " + command + ": --" + option + ": " + e.what());
      }
      const model::parameter& p = model.params[index];
      if (p.inferred) throw error("sadsl " + command + ": --" + option + ": \"" + name + "\" is inferred, not given");
      bool is_size = p.role() == model::parameter_role::problem_size;
      if (is_size != (std::string(option) == "size"))
        throw error("sadsl " + command + ": --" + option + ": \"" + name + "\" (" + model::describe(p.origin) +
                    ") goes in --" + (is_size ? "size" : "point"));
      point[index] = static_cast<double>(value);
      given[index] = true;
    }
  }
  for (std::size_t i = 0; i < point.size(); ++i) {
    const model::parameter& p = model.params[i];
    if (!given[i] && !p.inferred)
      throw error("sadsl " + command + ": no value for parameter \"" + p.name + "\" (give it with --" +
                  (p.role() == model::parameter_role::problem_size ? "size" : "point") + ")");
  }
  return point;
}

}  // namespace sadsl::cli
