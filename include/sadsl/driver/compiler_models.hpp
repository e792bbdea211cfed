#pragma once
// The model source of sadsl's own compiler: each design's performance model read off its
// architecture (modeling/performance_model.hpp). A design the builder cannot model yet (it says
// why in sadsl::error) gets no model and is not tuned.
#include "sadsl/driver/compile.hpp"
#include "sadsl/modeling/performance_model.hpp"

namespace sadsl {

model_source compiler_models(const modeling_options& options = {});

}  // namespace sadsl
