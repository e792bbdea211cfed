#include "sadsl/tune/device.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "sadsl/model/files.hpp"

#include "sadsl/error.hpp"

namespace sadsl::tune {

model::device_limits device::limits() const {
  return {dsp * usable_fraction, bram18k * usable_fraction, uram * usable_fraction};
}

namespace {

// Totals from the vendors' data sheets (Alveo U250/U280/U200, Virtex UltraScale+ VU9P as on AWS F1);
// the BRAM18K count of the VU9P is Odyssey's (its constraint file lists 4318 usable blocks). DRAM
// per port: a 64-bit DDR4-2400 channel 19.2 GB/s (the Alveo cards), DDR4-2133 17.064 GB/s (AWS
// F1's DIMMs), an HBM2 pseudo-channel of the U280 460 / 32 = 14.375 GB/s.
std::vector<device> builtins() {
  return {
      {"u200", 6840, 4320, 960, 1182240, 2364480, 0.7, 300, 4, 19.2},
      {"u250", 12288, 5376, 1280, 1728000, 3456000, 0.7, 300, 4, 19.2},
      {"u280", 9024, 4032, 960, 1303680, 2607360, 0.7, 300, 32, 14.375},  // 32 HBM pseudo-channels
      {"vu9p", 6840, 4318, 960, 1182240, 2364480, 0.7, 250, 4, 17.064},
  };
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

double number(const nlohmann::json& object, const std::string& key, const std::string& source, bool required,
              double fallback) {
  auto found = object.find(key);
  if (found == object.end()) {
    if (required) throw error(source + ": missing \"" + key + "\"");
    return fallback;
  }
  if (!found->is_number() || found->get<double>() < 0)
    throw error(source + ": \"" + key + "\" must be a non-negative number");
  return found->get<double>();
}

// Odyssey's form: {"DSP": {"total": N, "ratio": R}, ...}; one usable fraction per resource is
// folded into the totals so that limits() = total x ratio as Odyssey computes it. A ratio is a
// fraction as usable_fraction is (above 1 a design could use more than the device has; 1e308
// made the limit infinite).
device from_odyssey_constraints(const nlohmann::json& file, const std::string& source) {
  device d;
  d.name = source;
  d.usable_fraction = 1.0;
  auto usable = [&](const char* key) {
    auto found = file.find(key);
    if (found == file.end()) return 0.0;
    if (!found->is_object()) throw error(source + ": \"" + key + "\" must be {\"total\": N, \"ratio\": R}");
    double ratio = number(*found, "ratio", source + ": " + key, false, 1);
    if (ratio <= 0 || ratio > 1) throw error(source + ": " + key + ": \"ratio\" must be in (0, 1]");
    return number(*found, "total", source + ": " + key, true, 0) * ratio;
  };
  d.dsp = usable("DSP");
  d.bram18k = usable("BRAM18K");
  d.uram = usable("URAM");
  d.lut = usable("LUT");
  d.ff = usable("FF");
  return d;
}

}  // namespace

std::vector<std::string> builtin_device_names() {
  std::vector<std::string> names;
  for (const device& d : builtins()) names.push_back(d.name);
  return names;
}

device builtin_device(const std::string& name) {
  for (const device& d : builtins())
    if (d.name == lowercase(name)) return d;
  std::string known;
  for (const std::string& n : builtin_device_names()) known += (known.empty() ? "" : ", ") + n;
  throw error("unknown device \"" + name + "\" (known: " + known + ")");
}

device device_from_json(const nlohmann::json& description, const std::string& source) {
  if (!description.is_object()) throw error(source + ": a device must be a JSON object");
  if (description.contains("DSP")) return from_odyssey_constraints(description, source);
  device d;
  auto name = description.find("name");
  d.name = name != description.end() && name->is_string() ? name->get<std::string>() : source;
  d.dsp = number(description, "dsp", source, true, 0);
  d.bram18k = number(description, "bram18k", source, true, 0);
  d.uram = number(description, "uram", source, false, 0);
  d.lut = number(description, "lut", source, false, 0);
  d.ff = number(description, "ff", source, false, 0);
  d.usable_fraction = number(description, "usable_fraction", source, false, 0.7);
  if (d.usable_fraction <= 0 || d.usable_fraction > 1) throw error(source + ": \"usable_fraction\" must be in (0, 1]");
  d.clock_mhz = number(description, "clock_mhz", source, false, 300);
  if (d.clock_mhz <= 0) throw error(source + ": \"clock_mhz\" must be positive");
  double ports = number(description, "dram_ports", source, false, 4);
  if (ports < 1 || ports > 1024 || ports != std::floor(ports))
    throw error(source + ": \"dram_ports\" must be a whole number from 1 to 1024");
  d.dram_ports = static_cast<int>(ports);
  d.dram_gbytes_per_second = number(description, "dram_gbytes_per_second", source, false, 19.2);
  if (!(d.dram_gbytes_per_second > 0) || !std::isfinite(d.dram_gbytes_per_second))
    throw error(source + ": \"dram_gbytes_per_second\" must be a positive number");
  return d;
}

device load_device(const std::filesystem::path& file) {
  return device_from_json(nlohmann::json(model::read_json_file(file, "device file")), file.string());
}

device find_device(const std::string& name_or_file) {
  try {
    return builtin_device(name_or_file);
  } catch (const error& unknown) {
    if (std::filesystem::is_regular_file(name_or_file)) return load_device(name_or_file);
    throw error(std::string(unknown.what()) + " and no such device file");
  }
}

nlohmann::ordered_json to_json(const device& d) {
  return {{"name", d.name}, {"dsp", d.dsp}, {"bram18k", d.bram18k}, {"uram", d.uram}, {"lut", d.lut},
          {"ff", d.ff}, {"usable_fraction", d.usable_fraction}, {"clock_mhz", d.clock_mhz},
          {"dram_ports", d.dram_ports}, {"dram_gbytes_per_second", d.dram_gbytes_per_second}};
}

}  // namespace sadsl::tune
