#include "sadsl/driver/compiler_models.hpp"

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl {

model_source compiler_models(const modeling_options& options) {
  return model_source::concurrent([options](const design& d) -> std::optional<model::design_model> {
    try {
      return performance_model(d, options);
    } catch (const no_model&) {
      throw;
    } catch (const error& e) {
      throw no_model(e.what());  // outside what the builder models yet: the design is not tuned
    }
  });
}

model_source compiler_models(const tune::device& device, modeling_options options) {
  if (!(device.clock_mhz > 0) || !(device.dram_gbytes_per_second > 0))
    throw error(fmt::format("compiler_models: device \"{}\" needs a positive clock and DRAM bandwidth (has {} MHz, {} GB/s)",
                            device.name, device.clock_mhz, device.dram_gbytes_per_second));
  options.dram_bytes_per_cycle = device.dram_gbytes_per_second * 1e9 / (device.clock_mhz * 1e6);
  return compiler_models(options);
}

}  // namespace sadsl
