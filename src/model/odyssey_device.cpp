#include <fstream>

#include "sadsl/error.hpp"
#include "sadsl/model/odyssey.hpp"

namespace sadsl::model {

namespace {
double usable(const nlohmann::json& file, const std::string& resource, const std::string& source) {
  auto found = file.find(resource);
  if (found == file.end()) return 0;  // a resource the file does not list is not available
  if (!found->is_object() || !found->contains("total") || !(*found)["total"].is_number())
    throw error(source + ": /" + resource + ": expected {\"total\": N, \"ratio\": R}");
  double ratio = found->value("ratio", 1.0);
  return (*found)["total"].get<double>() * ratio;  // Odyssey: limit = total * ratio
}
}  // namespace

device_limits load_odyssey_constraints(const std::filesystem::path& file) {
  std::ifstream stream(file);
  if (!stream) throw error("cannot read constraint file " + file.string());
  nlohmann::json parsed;
  std::string source = file.filename().string();
  try {
    parsed = nlohmann::json::parse(stream);
  } catch (const nlohmann::json::parse_error& e) {
    throw error(source + ": invalid JSON: " + e.what());
  }
  return {usable(parsed, "DSP", source), usable(parsed, "BRAM18K", source), usable(parsed, "URAM", source)};
}

device_limits builtin_device_limits(const std::string& name, double usable_fraction) {
  if (name == "u250") return {12288 * usable_fraction, 5376 * usable_fraction, 1280 * usable_fraction};
  if (name == "vu9p") return {6840 * usable_fraction, 4318 * usable_fraction, 960 * usable_fraction};
  throw error("unknown device \"" + name + "\" (known: u250, vu9p)");
}

}  // namespace sadsl::model
