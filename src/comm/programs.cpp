#include "programs.hpp"

#include <isl/aff.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>

#include <cstdint>
#include <exception>

#include <fmt/format.h>

#include "isl_util.hpp"
#include "loop_generator.hpp"
#include "sadsl/error.hpp"

namespace sadsl::comm_detail {

namespace {

isl::set aligned(const isl::set& s, const isl::pw_multi_aff& to) {
  return isl::manage(isl_set_align_params(s.copy(), isl_pw_multi_aff_get_space(to.get())));
}

struct callback_data {
  const block_maker* maker = nullptr;
  std::vector<op_block>* blocks = nullptr;
  std::exception_ptr failure;
};

isl_ast_node* at_each_domain(isl_ast_node* node, isl_ast_build* build, void* user) {
  auto* data = static_cast<callback_data*>(user);
  if (data->failure) return node;
  try {
    isl::map schedule = isl::manage(isl_map_from_union_map(isl_ast_build_get_schedule(build)));
    std::string tuple = isl_map_get_tuple_name(schedule.get(), isl_dim_in);
    isl::pw_multi_aff iterators = isl::manage(isl_pw_multi_aff_from_map(isl_map_reverse(schedule.copy())));
    node_context at(build, iterators);
    data->blocks->push_back((*data->maker)(tuple, at));
    auto number = static_cast<intptr_t>(data->blocks->size());  // 1-based: a null user pointer means none
    isl_id* id = isl_id_alloc(isl_ast_node_get_ctx(node), "block", reinterpret_cast<void*>(number));
    return isl_ast_node_set_annotation(node, id);
  } catch (...) {
    data->failure = std::current_exception();
    return node;
  }
}

// isl generates loops from unnamed schedule spaces.
isl::union_map unnamed_ranges(const isl::union_map& schedule) {
  isl::union_map out = isl::union_map::empty(schedule.ctx());
  schedule.foreach_map([&](isl::map m) {
    out = out.unite(isl::union_map(isl::manage(isl_map_reset_tuple_id(m.release(), isl_dim_out))));
  });
  return out;
}

// isl's options that make every loop of the schedule's ranges atomic: each statement's instances
// in one loop of each dimension.
isl::union_map atomic_options(const isl::union_map& schedule) {
  isl::union_map out = isl::union_map::empty(schedule.ctx());
  schedule.foreach_map([&](isl::map m) {
    isl_space* range = isl_space_range(m.space().release());
    isl_space* atomic = isl_space_add_dims(isl_space_set_from_params(isl_space_params(isl_space_copy(range))), isl_dim_set, 1);
    atomic = isl_space_set_tuple_name(atomic, isl_dim_set, "atomic");
    out = out.unite(isl::union_map(isl::manage(isl_map_universe(isl_space_map_from_domain_and_range(range, atomic)))));
  });
  return out;
}

}  // namespace

isl::ast_expr node_context::condition(const isl::set& s) const {
  isl::set on_schedule = isl::manage(isl_set_preimage_pw_multi_aff(aligned(s, iterators_).release(), iterators_.copy()));
  if (own_) return own_->condition(on_schedule);
  return isl::manage(isl_ast_build_expr_from_set(build_, on_schedule.release()));
}

isl::ast_expr node_context::value(const isl::pw_aff& f) const {
  isl_pw_aff* pa = isl_pw_aff_align_params(f.copy(), isl_pw_multi_aff_get_space(iterators_.get()));
  if (own_ && isl_pw_aff_n_piece(pa) == 1 && isl_pw_multi_aff_isa_multi_aff(iterators_.get()) == isl_bool_true) {
    // One function and one inverse: pulling back the function alone spares the preimage of its
    // domain (which holds every instance, so every point of the call).
    isl_aff* a = isl_aff_pullback_multi_aff(comm_isl::only_piece(pa), isl_pw_multi_aff_as_multi_aff(iterators_.copy()));
    return own_->value(isl::manage(isl_pw_aff_from_aff(a)));
  }
  pa = isl_pw_aff_pullback_pw_multi_aff(pa, iterators_.copy());
  if (own_) return own_->value(isl::manage(pa));
  return isl::manage(isl_ast_build_expr_from_pw_aff(build_, pa));
}

std::vector<isl::ast_expr> node_context::values(const isl::pw_multi_aff& f) const {
  std::vector<isl::ast_expr> out;
  int n = static_cast<int>(isl_pw_multi_aff_dim(f.get(), isl_dim_out));
  for (int i = 0; i < n; ++i) out.push_back(value(isl::manage(isl_pw_multi_aff_get_at(f.get(), i))));
  return out;
}

module_part make_part(std::string name, bool previous_tile, const isl::union_map& schedule, const isl::set& context,
                      const block_maker& blocks, bool isl_only, isl_loops loops) {
  module_part part;
  part.name = std::move(name);
  part.previous_tile = previous_tile;
  isl::union_map unnamed = unnamed_ranges(schedule);
  if (!isl_only) {
    if (auto program = simple_program(unnamed, context, blocks, part.blocks)) {
      part.program = std::move(*program);
      return part;
    }
    part.blocks.clear();
  }
  callback_data data{&blocks, &part.blocks, nullptr};
  isl_ast_build* build = isl_ast_build_from_context(context.copy());
  build = isl_ast_build_set_at_each_domain(build, at_each_domain, &data);
  if (loops == isl_loops::atomic) build = isl_ast_build_set_options(build, atomic_options(unnamed).release());
  isl_ast_node* root = isl_ast_build_node_from_schedule_map(build, unnamed.release());
  isl_ast_build_free(build);
  isl::ast_node ast = isl::manage(root);
  if (data.failure) std::rethrow_exception(data.failure);
  SADSL_INTERNAL_ASSERT(!ast.is_null(), fmt::format("isl could not generate the AST of part {}", part.name));
  part.program = program_from_isl(ast);
  part.isl_program = true;
  return part;
}

isl::space part_params(const isl::set& params, size_t tiles, size_t coords) {
  isl_space* sp = isl_space_params(params.space().release());
  auto first = static_cast<unsigned>(isl_space_dim(sp, isl_dim_param));
  sp = isl_space_add_dims(sp, isl_dim_param, static_cast<unsigned>(tiles + coords));
  isl_ctx* ctx = isl_space_get_ctx(sp);
  for (size_t i = 0; i < tiles + coords; ++i) {
    std::string n = i < tiles ? fmt::format("t{}", i) : fmt::format("p{}", i - tiles);
    sp = isl_space_set_dim_id(sp, isl_dim_param, first + static_cast<unsigned>(i), isl_id_alloc(ctx, n.c_str(), nullptr));
  }
  return isl::manage(sp);
}

}  // namespace sadsl::comm_detail

