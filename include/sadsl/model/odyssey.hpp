#pragma once
// Import of the design descriptors that AutoSA writes for Odyssey (--tuning-method=1) into the
// model IR, reproducing the formulas of Odyssey's generated Python model (compatibility mode:
// real division in doubles, Odyssey's quirks kept; see docs/model.md).
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "sadsl/model/design_model.hpp"

namespace sadsl::model {

/// Reads a descriptor file. The model is named after the file (e.g. "kernel3_2") unless
/// `model_name` is given. Malformed input throws sadsl::error naming the file, the module and the
/// JSON path, e.g. `kernel3_2.json: module "PE": /latency/PE/child: missing key "type"`.
design_model import_odyssey_descriptor(const std::filesystem::path& file, std::string model_name = "");

/// The same from parsed JSON (key order as in the file); `source` names it in error messages.
design_model import_odyssey_descriptor(const nlohmann::ordered_json& descriptor, const std::string& source,
                                       std::string model_name);

}  // namespace sadsl::model
