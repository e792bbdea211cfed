#pragma once
// The model source of sadsl's own compiler: each design's performance model read off its
// architecture (modeling/performance_model.hpp). A design the builder cannot model yet gets no
// model and is not tuned: the source throws no_model with the builder's reason, which compile()
// keeps (compile_result::not_modeled, not_tuned, the report).
#include "sadsl/driver/compile.hpp"
#include "sadsl/modeling/performance_model.hpp"

namespace sadsl {

model_source compiler_models(const modeling_options& options = {});

/// The same, with the device's DRAM bandwidth per port: options.dram_bytes_per_cycle becomes
/// dram_gbytes_per_second at clock_mhz (19.2 GB/s at 300 MHz is 64 bytes, one 512-bit word, per
/// cycle: there the models are those of compiler_models()).
model_source compiler_models(const tune::device& device, modeling_options options = {});

}  // namespace sadsl
