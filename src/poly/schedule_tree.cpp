#include "schedule_tree.hpp"

#include <isl/aff.h>
#include <isl/local_space.h>
#include <isl/schedule.h>
#include <isl/union_map.h>

namespace sadsl {

namespace {

// { S[loops] -> [loop at depth] } for every statement of a group, as one union_pw_aff.
isl::multi_union_pw_aff band_schedule(const std::vector<statement_info*>& group, int depth) {
  isl_union_pw_aff* upa = nullptr;
  for (const statement_info* s : group) {
    isl_aff* it = isl_aff_var_on_domain(isl_local_space_from_space(s->domain.space().release()), isl_dim_set, depth);
    isl_union_pw_aff* piece = isl_union_pw_aff_from_pw_aff(isl_pw_aff_from_aff(it));
    upa = upa ? isl_union_pw_aff_union_add(upa, piece) : piece;
  }
  return isl::manage(isl_multi_union_pw_aff_from_union_pw_aff(upa));
}

class tree_builder {
public:
  // The schedule of `stmts` (in textual order) below `depth` enclosing loops.
  isl::schedule build(const std::vector<statement_info*>& stmts, size_t depth) {
    isl::schedule result;
    for (size_t i = 0; i < stmts.size();) {
      isl::schedule part;
      if (stmts[i]->record->loops.size() <= depth) {
        part = isl::schedule::from_domain(isl::union_set(stmts[i]->domain));
        ++i;
      } else {
        const auto& l = stmts[i]->record->loops[depth];
        std::vector<statement_info*> group;
        for (; i < stmts.size() && stmts[i]->record->loops.size() > depth && stmts[i]->record->loops[depth] == l; ++i)
          group.push_back(stmts[i]);
        int band = next_band_++;
        for (auto* s : group) s->bands.push_back(band);
        part = build(group, depth + 1);
        part = isl::manage(isl_schedule_insert_partial_schedule(part.release(), band_schedule(group, depth).release()));
      }
      result = result.is_null() ? part : isl::manage(isl_schedule_sequence(result.release(), part.release()));
    }
    return result;
  }

private:
  int next_band_ = 0;
};

}  // namespace

isl::schedule build_schedule_tree(std::vector<statement_info>& statements) {
  std::vector<statement_info*> all;
  for (auto& s : statements) all.push_back(&s);
  return tree_builder().build(all, 0);
}

}  // namespace sadsl
