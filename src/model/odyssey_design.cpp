// A descriptor's design (dataflow and tile order) read from its content, and the descriptor of a
// given design in a folder: the bridge used until the compiler builds its own models.
#include <algorithm>
#include <set>

#include "odyssey_reader.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/files.hpp"
#include "sadsl/model/odyssey.hpp"

namespace sadsl::model {
namespace odyssey {
namespace {

// The descriptor's parameters and the loop each tiles; expressions parse over them.
class design_reader {
public:
  design_reader(const json& root, const std::string& source) : in_(root, source) {
    if (!root.is_object()) in_.fail("", "", "expected a JSON object");
    params_ = declared_parameters(in_);
    loops_ = loops_of(in_, params_);
    for (const declared_parameter& p : params_) in_.add_parameter(p.name, p.index);
  }

  // The one loop whose size or factors the expression at `path` names (e.g. "(i_t1/i_t2)" -> i).
  std::string loop_of(const json& value, const std::string& module, const std::string& path) const {
    std::vector<std::size_t> names = parameters_of(in_.expression_value(value, module, path));
    std::set<std::string> loops;
    for (std::size_t index : names)
      if (auto found = loops_.find(params_[index].name); found != loops_.end()) loops.insert(found->second);
    if (loops.size() != 1) {
      std::string listed;
      for (const std::string& l : loops) listed += (listed.empty() ? "" : ", ") + l;
      std::string text = value.is_string() ? value.get<std::string>() : value.dump();
      in_.fail(module, path, "\"" + text + "\" names " + std::to_string(loops.size()) + " tiled loops" +
                                 (listed.empty() ? "" : " (" + listed + ")") + ", expected one");
    }
    return *loops.begin();
  }

  std::vector<std::string> space_loops() const {
    const json& pe = in_.member(in_.member(in_.root(), "compute", "", ""), "PE", "PE", "/compute");
    const json& dims = in_.member(pe, "dims", "PE", "/compute/PE");
    if (!dims.is_array() || dims.empty()) in_.fail("PE", "/compute/PE/dims", "expected a non-empty list");
    std::vector<std::string> loops;
    for (std::size_t d = 0; d < dims.size(); ++d)
      loops.push_back(loop_of(dims[d], "PE", "/compute/PE/dims/" + std::to_string(d)));
    return loops;
  }

  // The `for` loops of the PE's latency tree above its `array` mark, outermost first.
  std::vector<std::string> tile_order() const {
    std::vector<std::string> order;
    std::string path = "/latency/PE";
    const json* node = &in_.member(in_.member(in_.root(), "latency", "", ""), "PE", "PE", "/latency");
    for (;;) {
      std::string type = in_.string_member(*node, "type", "PE", path);
      if (type == "mark" && in_.string_member(*node, "content", "PE", path) == "array") return order;
      if (type == "for") {
        const json& bounds = in_.member(*node, "bounds", "PE", path);
        if (!bounds.is_array() || bounds.size() != 2) in_.fail("PE", path + "/bounds", "expected [lower, upper]");
        order.push_back(loop_of(bounds[1], "PE", path + "/bounds/1"));
      } else if (type != "mark") {
        in_.fail("PE", path, "a \"" + type + "\" node above the \"array\" mark (expected only loops and marks)");
      }
      node = &in_.member(*node, "child", "PE", path);
      path += "/child";
    }
  }

private:
  reader in_;
  std::vector<declared_parameter> params_;
  std::map<std::string, std::string> loops_;
};

bool same_set(std::vector<std::string> a, std::vector<std::string> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

}  // namespace
}  // namespace odyssey

odyssey_design read_odyssey_design(const nlohmann::ordered_json& descriptor, const std::string& source) {
  odyssey::design_reader in(descriptor, source);
  return {in.space_loops(), in.tile_order()};
}

odyssey_design read_odyssey_design(const std::filesystem::path& file) {
  return read_odyssey_design(read_json_file(file, "descriptor"), file.string());
}

std::optional<std::filesystem::path> find_odyssey_descriptor(const std::filesystem::path& folder,
                                                             const std::vector<std::string>& space_loops,
                                                             const std::vector<std::string>& outer_tile_loops,
                                                             const std::vector<std::string>& inner_tile_loops) {
  std::vector<std::filesystem::path> files;
  std::error_code failed;
  for (std::filesystem::directory_iterator it(folder, failed), end; !failed && it != end; it.increment(failed))
    if (it->path().extension() == ".json") files.push_back(it->path());
  if (failed) throw error("cannot read descriptor folder " + folder.string() + ": " + failed.message());
  std::sort(files.begin(), files.end());
  std::optional<std::filesystem::path> match;
  std::size_t outer = outer_tile_loops.size();
  for (const std::filesystem::path& file : files) {
    odyssey_design d = read_odyssey_design(file);
    if (!odyssey::same_set(d.space_loops, space_loops) || d.tile_order.size() != outer + inner_tile_loops.size()) continue;
    std::vector<std::string> head(d.tile_order.begin(), d.tile_order.begin() + static_cast<std::ptrdiff_t>(outer));
    std::vector<std::string> tail(d.tile_order.begin() + static_cast<std::ptrdiff_t>(outer), d.tile_order.end());
    if (!odyssey::same_set(head, outer_tile_loops) || tail != inner_tile_loops) continue;
    if (match) throw error("descriptors " + match->string() + " and " + file.string() + " have the same design");
    match = file;
  }
  return match;
}

}  // namespace sadsl::model
