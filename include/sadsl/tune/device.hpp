#pragma once
// FPGA device profiles: resource totals, the fraction a design may use, clock and DRAM ports.
// Built-in profiles for the Alveo U250, U280, U200 and the VU9P (AWS F1); users define their own
// in C++ (fill a device) or JSON (load_device).
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sadsl/model/design_model.hpp"

namespace sadsl::tune {

struct device {
  std::string name;
  double dsp = 0;
  double bram18k = 0;
  double uram = 0;
  double lut = 0;
  double ff = 0;
  /// The fraction of each resource a design may use (Odyssey: 0.7, room for routing and the shell).
  double usable_fraction = 0.7;
  double clock_mhz = 300;
  /// Independent off-chip memory ports (DDR banks or HBM pseudo-channels).
  int dram_ports = 4;
  /// Bandwidth of each DRAM port in GB/s (10^9 bytes per second): a 64-bit DDR4-2400 channel
  /// moves 19.2. compiler_models(device) models transfers with it (bytes per cycle at clock_mhz).
  double dram_gbytes_per_second = 19.2;

  /// Usable DSP, BRAM18K and URAM (total x usable fraction), as the models' feasibility test uses them.
  model::device_limits limits() const;
};

/// A built-in profile: "u250", "u280", "u200" or "vu9p" (case-insensitive). Throws sadsl::error
/// naming the known devices otherwise.
device builtin_device(const std::string& name);

/// Names of the built-in profiles, sorted.
std::vector<std::string> builtin_device_names();

/// A device from JSON. Two forms are accepted: sadsl's own
///   {"name": "my", "dsp": 1000, "bram18k": 800, "uram": 0, "lut": 1, "ff": 1,
///    "usable_fraction": 0.7, "clock_mhz": 250, "dram_ports": 2, "dram_gbytes_per_second": 19.2}
/// (dsp and bram18k required) and Odyssey's constraint files
///   {"DSP": {"total": 12288, "ratio": 0.7}, "BRAM18K": {...}, "URAM": {...}}.
/// `source` names the input in error messages.
device device_from_json(const nlohmann::json& description, const std::string& source);

/// Reads device_from_json from a file.
device load_device(const std::filesystem::path& file);

/// A built-in name, or else a JSON file; the error names both possibilities.
device find_device(const std::string& name_or_file);

nlohmann::ordered_json to_json(const device& d);

}  // namespace sadsl::tune
