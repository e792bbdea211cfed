#include "point_options.hpp"

#include <charconv>
#include <filesystem>
#include <sstream>

#include "sadsl/error.hpp"
#include "sadsl/tune/device.hpp"

namespace sadsl::cli {

std::vector<std::pair<std::string, double>> parse_assignments(const arguments& args, const std::string& option,
                                                              const std::string& text) {
  std::vector<std::pair<std::string, double>> result;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    auto eq = item.find('=');
    long long value = 0;
    const char* begin = item.data() + (eq == std::string::npos ? 0 : eq + 1);
    const char* end = item.data() + item.size();
    auto [stop, ec] = std::from_chars(begin, end, value);
    if (eq == std::string::npos || eq == 0 || ec != std::errc() || stop != end)
      throw error("sadsl " + args.command() + ": --" + option + ": \"" + item + "\" is not name=integer");
    result.emplace_back(item.substr(0, eq), static_cast<double>(value));
  }
  return result;
}

tune::device device_option(const arguments& args) {
  const std::string* device = args.optional("device");
  try {
    return tune::find_device(device ? *device : "u250");
  } catch (const error& e) {
    throw error("sadsl " + args.command() + ": --device: " + e.what());
  }
}

model::device_limits device_from(const arguments& args) { return device_option(args).limits(); }

std::vector<double> point_from(const arguments& args, const model::design_model& model) {
  std::vector<double> point(model.params.size());
  std::vector<bool> given(model.params.size(), false);
  for (const char* option : {"size", "point"}) {
    const std::string& text = args.required(option, std::string(option) == "size" ? "i=N,j=N,..." : "name=N,...");
    for (const auto& [name, value] : parse_assignments(args, option, text)) {
      std::size_t index = 0;
      try {
        index = model.parameter_index(name);
      } catch (const error& e) {
        throw error("sadsl " + args.command() + ": --" + option + ": " + e.what());
      }
      if (model.params[index].inferred)
        throw error("sadsl " + args.command() + ": --" + option + ": \"" + name + "\" is inferred, not given");
      point[index] = value;
      given[index] = true;
    }
  }
  for (std::size_t i = 0; i < point.size(); ++i) {
    const model::parameter& p = model.params[i];
    if (!given[i] && !p.inferred)
      throw error("sadsl " + args.command() + ": no value for parameter \"" + p.name + "\" (give it with --" +
                  (p.role == model::parameter_role::problem_size ? "size" : "point") + ")");
  }
  return point;
}

}  // namespace sadsl::cli
