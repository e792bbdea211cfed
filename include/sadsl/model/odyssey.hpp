#pragma once
// Import of the design descriptors that AutoSA writes for Odyssey (--tuning-method=1) into the
// model IR, reproducing the formulas of Odyssey's generated Python model (compatibility mode:
// real division in doubles, Odyssey's quirks kept; see docs/model.md).
//
// This is the one place that knows Odyssey's spellings: it maps them to parameter origins
// (problem sizes, tiling factors of loops, packing factors of tensors' I/O groups) and, for the
// design mapping below, reads a descriptor's dataflow and tile order from its content.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sadsl/core/identity.hpp"
#include "sadsl/model/design_model.hpp"

namespace sadsl::model {

/// Binds a descriptor's names to a kernel's objects: Odyssey's loop names ("i": the loop_ub
/// parameter that a split_by chain starts from), loop_ub names (problem sizes) and array names.
struct odyssey_binding {
  std::map<std::string, loop_id> loops;
  std::map<std::string, param_id> sizes;
  std::map<std::string, tensor_id> tensors;
};

/// Reads a descriptor file. The model is named `model_name`, or after the file ("kernel3_2")
/// when it is empty; its source is "AutoSA descriptor <file>". Without a binding every loop, size
/// and tensor gets a fresh identity named as in the descriptor; with one, the binding's (an
/// error names the descriptor, JSON path and the name the binding lacks). Malformed input throws
/// sadsl::error naming the file (as given), the module and the JSON path, e.g.
/// `gemm/kernel3_2.json: module "PE": /latency/PE/child: missing key "type"`.
design_model import_odyssey_descriptor(const std::filesystem::path& file, std::string model_name = "",
                                       const odyssey_binding* binding = nullptr);

/// The same from parsed JSON (key order as in the file); `source` names it in error messages and
/// in the model's source.
design_model import_odyssey_descriptor(const nlohmann::ordered_json& descriptor, const std::string& source,
                                       std::string model_name, const odyssey_binding* binding = nullptr);

/// A descriptor's design, read from its content (never from its file name), loops spelled as in
/// the descriptor (the loop_ub names).
struct odyssey_design {
  std::vector<std::string> space_loops;  ///< one per PE array dimension (`compute/PE/dims`), in order
  std::vector<std::string> tile_order;   ///< the tile loops above the PE's `array` mark, outermost first
};
odyssey_design read_odyssey_design(const std::filesystem::path& file);
odyssey_design read_odyssey_design(const nlohmann::ordered_json& descriptor, const std::string& source);

/// The descriptor in `folder` (every *.json file) of the design with these space loops (a set)
/// and this tile-order class (Odyssey's Theorem 3.1: the same set of outer tile loops, then the
/// same innermost loops in the same order), loops spelled as in the descriptors. std::nullopt when none matches;
/// sadsl::error when two do, or when the folder or a descriptor cannot be read.
std::optional<std::filesystem::path> find_odyssey_descriptor(const std::filesystem::path& folder,
                                                             const std::vector<std::string>& space_loops,
                                                             const std::vector<std::string>& outer_tile_loops,
                                                             const std::vector<std::string>& inner_tile_loops);

}  // namespace sadsl::model
