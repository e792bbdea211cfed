// Odyssey's latency and off-chip rules, applied to the `latency` loop trees of a descriptor.
// The walk keeps Odyssey's traversal state (whether a node is inside the `array` mark, whether a
// block has seen a loop) so that quirks such as "a block without loops costs 1" come out the same.
#include <map>

#include "odyssey_reader.hpp"

namespace sadsl::model::odyssey {
namespace {

enum class phase { prologue, main, epilogue, offchip };

bool is_sub_module(const std::string& name) {
  // Odyssey's own test: a name containing "inter" or "intra" is the inner part of an I/O module.
  return name.find("inter") != std::string::npos || name.find("intra") != std::string::npos;
}

class tree_walker {
public:
  tree_walker(const reader& in, phase p) : in_(in), phase_(p) {}

  // Odyssey converts every module twice so that a module sees its sub-modules' results.
  std::map<std::string, loop_tree> convert_all() {
    const json& latency = in_.member(in_.root(), "latency", "", "");
    for (int pass = 0; pass < 2; ++pass) {
      for (const auto& [name, tree] : latency.items()) {
        int direction = in_.int_member(attr_of(name), "in", name, "/attr/" + name);
        if (phase_ == phase::prologue && direction != 1) continue;
        if (phase_ == phase::epilogue && direction != 0) continue;
        module_ = name;
        // In prologue and epilogue only the loops under the `array` mark of a top module count.
        gated_ = (phase_ == phase::prologue || phase_ == phase::epilogue) && !is_sub_module(name);
        valid_ = !gated_;
        done_.insert_or_assign(name, convert(tree, "/latency/" + name));
      }
    }
    return done_;
  }

private:
  const json& attr_of(const std::string& module) const {
    const json& attrs = in_.member(in_.root(), "attr", "", "");
    return in_.member(attrs, module, module, "/attr");
  }

  loop_tree convert(const json& node, const std::string& path) {
    std::string type = in_.string_member(node, "type", module_, path);
    if (type == "for") return convert_for(node, path);
    if (type == "block") return convert_block(node, path);
    if (type == "mark") return convert_mark(node, path);
    if (type == "if") return convert_if(node, path);
    if (type == "user") return convert_user(node, path);
    if (type == "array_tile") return convert_tile(node, path);
    in_.fail(module_, path + "/type", "unknown node type \"" + type + "\"");
  }

  loop_tree convert_for(const json& node, const std::string& path) {
    const json& bounds = in_.member(node, "bounds", module_, path);
    if (!bounds.is_array() || bounds.size() != 2) in_.fail(module_, path + "/bounds", "expected [lower, upper]");
    // Lower bounds are 0 in AutoSA's trees; Odyssey ignores them. Parse both to catch bad text.
    in_.expression_value(bounds[0], module_, path + "/bounds/0");
    expr trip = in_.expression_value(bounds[1], module_, path + "/bounds/1");
    loop_tree body = convert(in_.member(node, "child", module_, path), path + "/child");
    has_loop_ = true;
    if (phase_ == phase::offchip || valid_) return make_loop(trip, std::move(body));
    return body;
  }

  loop_tree convert_block(const json& node, const std::string& path) {
    const json& children = in_.member(node, "child", module_, path);
    if (!children.is_array()) in_.fail(module_, path + "/child", "expected a list");
    has_loop_ = false;
    bool any_loop = false;
    std::vector<loop_tree> converted;
    for (std::size_t i = 0; i < children.size(); ++i) {
      converted.push_back(convert(children[i], path + "/child/" + std::to_string(i)));
      any_loop = any_loop || has_loop_;
    }
    if (!any_loop) return make_leaf(1);
    return make_block(std::move(converted));
  }

  loop_tree convert_mark(const json& node, const std::string& path) {
    std::string content = in_.string_member(node, "content", module_, path);
    bool opens_gate = gated_ && content == "array";
    if (opens_gate) valid_ = true;
    std::optional<loop_tree> result;
    if (content == "simd") {
      result = make_leaf(valid_ ? 1 : 0);  // the unrolled SIMD loop takes one cycle
    } else {
      loop_tree child = convert(in_.member(node, "child", module_, path), path + "/child");
      result = content == "hls_pipeline" ? make_pipeline(std::move(child)) : std::move(child);
    }
    if (opens_gate) valid_ = false;
    return std::move(*result);
  }

  loop_tree convert_if(const json& node, const std::string& path) {
    const json& children = in_.member(node, "child", module_, path);
    if (!children.is_array() || children.empty()) in_.fail(module_, path + "/child", "expected a non-empty list");
    loop_tree then_branch = convert(children[0], path + "/child/0");
    // Odyssey never looks at the else branch; it is converted for completeness with the state
    // restored afterwards, so it cannot change how the rest of the tree is read.
    std::optional<loop_tree> else_branch;
    if (children.size() > 1) {
      auto saved = std::tuple{valid_, has_loop_};
      else_branch = convert(children[1], path + "/child/1");
      std::tie(valid_, has_loop_) = saved;
    }
    return make_branch(std::move(then_branch), std::move(else_branch));
  }

  const loop_tree* done(const std::string& name) const {
    auto found = done_.find(name);
    return found == done_.end() ? nullptr : &found->second;
  }

  loop_tree convert_user(const json& node, const std::string& path) {
    const json& child = in_.member(node, "child", module_, path);
    std::string text = in_.string_member(child, "user_expr", module_, path + "/child");
    const loop_tree* inter = done(module_ + "_inter");
    const loop_tree* intra = done(module_ + "_intra");
    if (text.find("inter_intra") != std::string::npos || text.find("intra_inter") != std::string::npos) {
      // "io_module.inter_intra.<...>.<double buffered>()"
      std::string call = text.size() >= 2 ? text.substr(0, text.size() - 2) : text;
      bool double_buffered = call.substr(call.rfind('.') + 1) == "1";
      std::optional<loop_tree> result;
      if (inter && intra) {
        has_loop_ = true;
        if (phase_ == phase::prologue || phase_ == phase::epilogue) result = *inter;
        else result = make_transfer(*inter, *intra, phase_ == phase::main && double_buffered);
      } else {
        result = make_leaf(1);
      }
      return valid_ ? std::move(*result) : make_leaf(0);
    }
    if (phase_ != phase::offchip && text.find("inter_trans") != std::string::npos)
      return !valid_ ? make_leaf(0) : inter ? *inter : make_leaf(1);
    if (phase_ != phase::offchip && text.find("intra_trans") != std::string::npos)
      return !valid_ ? make_leaf(0) : intra ? *intra : make_leaf(1);
    return make_leaf(1);
  }

  loop_tree convert_tile(const json& node, const std::string& path) {
    expr size = in_.expression(node, "size", module_, path);
    if (phase_ == phase::offchip) return make_leaf(size);
    expr last_dim = in_.expression(node, "last_dim", module_, path);
    expr pack = in_.expression(node, "data_pack_factor", module_, path);
    expr words_per_beat = expr(512.0) / 8 / expr(in_.int_member(node, "ele_size", module_, path, 1, 64));
    const json& attr = attr_of(module_);
    std::string attr_path = "/attr/" + module_;
    if (in_.int_member(attr, "to_dram", module_, attr_path) != 1) return make_leaf(size / pack);
    if (in_.int_member(attr, "serialize", module_, attr_path) == 0)
      return make_leaf(size / last_dim * (expr(20) + last_dim / words_per_beat));  // 20 cycles per burst
    return make_leaf(size / min(pack, words_per_beat));
  }

  const reader& in_;
  phase phase_;
  std::string module_;
  bool gated_ = false;
  bool valid_ = true;
  bool has_loop_ = false;
  std::map<std::string, loop_tree> done_;
};

module_role role_of(const reader& in, const std::string& module) {
  const json& attr = in.member(in.member(in.root(), "attr", "", ""), module, module, "/attr");
  int direction = in.int_member(attr, "in", module, "/attr/" + module);
  return direction == 1 ? module_role::input : direction == 0 ? module_role::output : module_role::compute;
}

}  // namespace

latency_part import_latency(const reader& in) {
  auto prologue = tree_walker(in, phase::prologue).convert_all();
  auto main = tree_walker(in, phase::main).convert_all();
  auto epilogue = tree_walker(in, phase::epilogue).convert_all();
  auto offchip = tree_walker(in, phase::offchip).convert_all();
  latency_part part;
  part.offchip_elements = expr(0.0);
  for (const auto& [name, tree] : in.member(in.root(), "latency", "", "").items()) {
    if (is_sub_module(name) || is_merged_drain_module(in, name)) continue;
    module_latency module{name, role_of(in, name), main.at(name), std::nullopt, std::nullopt};
    if (module.role == module_role::input) module.prologue = prologue.at(name);
    if (module.role == module_role::output) module.epilogue = epilogue.at(name);
    part.modules.push_back(std::move(module));
    const json& attr = in.member(in.member(in.root(), "attr", "", ""), name, name, "/attr");
    if (in.int_member(attr, "to_dram", name, "/attr/" + name) == 1)
      part.offchip_elements = part.offchip_elements + cost(offchip.at(name));
  }
  return part;
}

}  // namespace sadsl::model::odyssey
