// Fuzz target: device files (sadsl's form and Odyssey's constraint files) and built-in device
// names. An accepted device has usable, finite limits.
#include <cmath>

#include "fuzz_support.hpp"
#include "sadsl/model/files.hpp"
#include "sadsl/tune/device.hpp"

using namespace sadsl;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text = fuzz::text_of(data, size);
  fuzz::refused([&] { tune::builtin_device(text); });
  nlohmann::ordered_json description;
  if (fuzz::refused([&] { description = model::parse_json(text, "fuzz.json"); })) return 0;
  tune::device d;
  if (fuzz::refused([&] { d = tune::device_from_json(nlohmann::json(description), "fuzz.json"); })) return 0;
  model::device_limits limits = d.limits();
  fuzz::fuzz_check(std::isfinite(limits.dsp) && limits.dsp >= 0, "usable DSPs are finite and non-negative");
  fuzz::fuzz_check(std::isfinite(limits.bram18k) && limits.bram18k >= 0, "usable BRAMs are finite and non-negative");
  fuzz::fuzz_check(d.dram_ports >= 1 && d.dram_ports <= 1024, "DRAM ports from 1 to 1024");
  tune::to_json(d).dump();
  return 0;
}
