#pragma once
// The interpreter's self-check (run_options::check_instances). A schedule must execute every
// instance of every statement's domain exactly once: the checker tests each executed instance
// against its statement's domain (params fixed, constraints precompiled to integer rows), marks it
// in a bitmap over the domain's bounding box, and compares the counts with isl's at the end.
#include <isl/cpp.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ast_exec.hpp"
#include "sadsl/poly/program.hpp"

namespace sadsl::detail {

/// Membership in one statement's domain at fixed param values, for integer points.
class domain_test {
public:
  /// `domain` has no params (fix them, then project them out).
  explicit domain_test(const isl::set& domain);
  bool contains(const int64_t* point) const;
  /// Whether contains() tests the precompiled rows (not isl's membership test).
  bool exact_rows() const { return !use_fallback_; }

private:
  struct row {
    std::vector<int64_t> coef;  // over the set dimensions, then the divs
    int64_t constant = 0;
  };
  struct disjunct {  // one basic set: divs (in order), equalities (= 0), inequalities (>= 0)
    std::vector<row> divs;
    std::vector<int64_t> denominators;
    std::vector<row> equalities, inequalities;
  };
  bool compile(const isl::basic_set& b);
  bool contains(const disjunct& d, const int64_t* point) const;

  size_t dims_ = 0;
  std::vector<disjunct> disjuncts_;
  isl::set fallback_;  // used when a div has no explicit representation (isl's membership test)
  bool use_fallback_ = false;
};

class instance_checker {
public:
  /// `param_values` fixes every param of the program.
  instance_checker(const program& p, const isl::set& param_values);
  ~instance_checker();
  /// Records that statement `s` (its index in p.statements()) executed at `coords`, called from
  /// `where` in the schedule's loop nest; internal_error when the instance lies outside the
  /// domain or executed before.
  void executed(int s, const int64_t* coords, const ast_exec::call_site& where);
  /// internal_error when a statement executed fewer instances than its domain has.
  void finish() const;

private:
  struct statement_check;
  [[noreturn]] void fail(const statement_check& s, const std::string& problem) const;
  std::string instance_text(const statement_check& s, const int64_t* coords) const;

  const program& p_;
  std::string params_;  // "N = 8, T = 5"
  std::vector<std::unique_ptr<statement_check>> statements_;
};

}  // namespace sadsl::detail
