#pragma once
// Internal: lower bounds of a model expression over parts of a design space, for the exact search.
//
// An expression is relaxed into a tree of monomials combined by sum, product, max, min, ceil and
// floor. A monomial is c x g_1 x ... x g_L where each g_l depends on the tiling of loop l only and
// is tabulated exactly over every chain of that loop (padding included). Every value in the
// models is non-negative, so a monomial is bounded below by the product of its factors' minima
// over the loops not yet fixed, and max(a, b), a + b, a / b (b single-loop), ceil and floor pass
// bounds through. Two forms the compiler-built models use (docs/modeling.md) are bounded too:
// max(k, a - b) with a constant k >= 0 and b (constant or bounded above) (a memory-kind or size indicator) by
// max(k, lower(a) - c), an "excess" node (also a - c alone where a >= c over the whole space,
// as a tile count less one); and a / b where b spans several loops (the packing
// factor, a sum over loops) by lower(a) / upper(b), upper(b) the product and sum of its
// tables' maxima. A resource that is one monomial (DSP = 5 x PEs x SIMD) also couples the free
// loops: the best factor a free loop can contribute is the best among the chains that still fit
// the resource budget left by the fixed loops (Pareto frontiers of (resource, factor)).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "sadsl/model/expr.hpp"
#include "sadsl/tune/design_space.hpp"

namespace sadsl::tune::detail {

struct lb_node {
  enum class kind { monomial, sum, product, max, min, ceil, floor, excess };
  kind type = kind::monomial;
  double coefficient = 1;       ///< monomial; excess: the c of max(0, child - c)
  std::vector<int> factors;     ///< monomial: table id per loop, -1 when it has no factor there
  std::vector<int> children;
};

/// A point of a front: resource factor h, objective factor g.
struct pair_hg {
  double h, g;
};

/// Pareto frontier of (resource part, factor part) over the chains of some free loops: the
/// least factor achievable within each resource budget.
struct frontier {
  std::vector<double> budget;  ///< ascending
  std::vector<double> best;    ///< strictly descending
};

/// Which loops are fixed at a search node: the first `level` loops of the search order.
struct node_state {
  std::size_t level = 0;
  const std::uint32_t* chain = nullptr;  ///< chain index per loop (in model loop order); valid for fixed loops
};

class bound_model {
public:
  /// Thrown by the constructor when `stopped` says so: building the bounds of a large model takes
  /// a tenth of a second or more, which a small time budget must not overrun.
  struct interrupted {};

  /// `order` is the search's loop order (loop indices); `goal` the objective expression.
  /// `stopped` (optional) is asked now and then while the bounds are built.
  bound_model(const design_space& space, const model::expr& goal, std::vector<std::size_t> order,
              std::function<bool()> stopped = {});
  /// The bounds of `relaxed` for another search order: the relaxed trees and tables are the same
  /// in every order, only the couplings (which depend on which loops are fixed) are built again.
  bound_model(const bound_model& relaxed, std::vector<std::size_t> order);

  double objective_bound(const node_state& s) const { return evaluate(objective_root_, s); }
  /// True when some resource's lower bound already exceeds the device limit.
  bool resources_exceed(const node_state& s) const { return resources_exceed(s, new_epoch()); }
  /// Roots of the subtrees that bound the objective on their own (reachable through sum and max).
  const std::vector<int>& direct_terms() const { return direct_; }
  double term_bound(int node, const node_state& s) const { return evaluate(node, s); }

  /// The bounds at one search node, asked one after another (direct terms, then resources, then
  /// the objective): the direct terms are subtrees of the objective and share subtrees among
  /// themselves, so each node of the bound tree is evaluated once for all of them. Valid while
  /// the node's chain is unchanged; others may be used in between (each has its own epoch).
  class at_node {
  public:
    at_node(const bound_model& bounds, const node_state& s) : bounds_(bounds), s_(s), epoch_(bounds.new_epoch()) {}
    double term(int node) const { return bounds_.evaluate(node, s_, epoch_); }
    double objective() const { return term(bounds_.objective_root_); }
    bool resources_exceed() const { return bounds_.resources_exceed(s_, epoch_); }

  private:
    const bound_model& bounds_;
    node_state s_;
    std::uint64_t epoch_;
  };

  /// Monomials that bound the objective on their own, for the innermost loop, as coefficient x
  /// table of the last loop given the others fixed.
  const std::vector<int>& direct_monomials() const { return direct_monomials_; }
  const std::vector<int>& resource_monomials() const { return resource_monomials_; }
  const lb_node& node(int id) const { return nodes_[static_cast<std::size_t>(id)]; }
  const std::vector<double>& table(int id) const { return tables_[static_cast<std::size_t>(id)]; }
  double resource_limit(int monomial) const;
  /// Per resource that is a sum: one monomial per summand (their sum bounds the resource).
  struct resource_sum {
    std::size_t first = 0, count = 0;  ///< range in resource_sum_terms()
    double limit = 0;
  };
  const std::vector<resource_sum>& resource_sums() const { return resource_sums_; }
  const std::vector<int>& resource_sum_terms() const { return resource_sum_terms_; }
  const std::vector<std::size_t>& order() const { return order_; }

  /// Per chain of `loop`: false when a constraint or an inference that depends on this loop
  /// alone already fails (such chains are illegal whatever the other loops are).
  std::vector<bool> legal_chains(std::size_t loop);
  /// A constraint between loops whose sides are monomials: checked exactly once every loop is fixed.
  struct monomial_constraint {
    int lhs = -1, rhs = -1;
    bool at_least = true;  ///< lhs >= rhs, else lhs <= rhs
  };
  const std::vector<monomial_constraint>& cross_constraints() const { return cross_constraints_; }

private:
  struct coupling {
    int resource_monomial;
    double limit;       ///< the resource's usable amount
    std::size_t level;  ///< applies when exactly the first `level` loops of the order are fixed
    frontier pareto;
  };

  int relax(const model::expr& e);
  int relax_uncached(const model::expr& e);
  /// Starts a new tree (the objective, a resource): its nodes are hash-consed among themselves.
  void start_tree();
  /// relax(e), or std::nullopt where e cannot be bounded (relax throws sadsl::error).
  std::optional<int> relax_or_none(const model::expr& e);
  /// A lower bound node of max(0, e.lhs() - e.rhs()), by upper(e.rhs()); -1 without one.
  int excess(const model::expr& e);
  /// A lower bound of an expression over the whole space (0 where it cannot be relaxed).
  double lowest(const model::expr& e);
  /// An upper bound of a non-negative expression over the whole space (tables' maxima).
  double upper(const model::expr& e);
  int monomial_of(const model::expr& e, std::size_t loop);
  int constant(double value);
  int combine(lb_node::kind kind, int a, int b);
  int multiply(int a, int b);
  int add_node(lb_node n);
  int table_for(const model::expr& e, std::size_t loop);
  /// The id of a table with these values (one id per distinct content, so that alike monomials
  /// have the same factors).
  int add_table(std::vector<double> values);
  void merge_like_monomials(lb_node& n);
  /// A value over every chain of one loop: a constant, or one value per chain.
  struct column {
    double scalar = 0;
    std::vector<double> values;  ///< empty for a constant
  };
  const std::vector<column>& param_columns(std::size_t loop);
  column evaluate_column(const model::expr& e, const std::vector<column>& params, std::size_t chains) const;
  std::vector<std::size_t> loops_of(const model::expr& e);
  void collect_direct(int id, std::vector<int>& out) const;
  void build_couplings();
  frontier frontier_for(int monomial, int resource, std::size_t level, double max_budget);
  const std::vector<pair_hg>& loop_front(std::size_t loop, int resource_table, int objective_table);
  /// The bound of node `id` at s. Alike subtrees are one node (add_node), so a node can be reached
  /// many times in one evaluation: each is computed once per call (per-thread scratch).
  double evaluate(int id, const node_state& s) const { return evaluate(id, s, new_epoch()); }
  /// Values computed under the same epoch are reused (per-thread scratch; epochs are unique per
  /// thread, so evaluations of different nodes, or of different bound models, never mix).
  double evaluate(int id, const node_state& s, std::uint64_t epoch) const;
  bool resources_exceed(const node_state& s, std::uint64_t epoch) const;
  static std::uint64_t new_epoch();
  struct scratch;
  double evaluate_node(int id, const node_state& s, scratch& memo, std::uint64_t epoch) const;
  double monomial_bound(int id, const node_state& s) const;

  /// Asks `stopped_` every 64 calls; throws interrupted when it says so.
  void poll();

  const design_space& space_;
  std::function<bool()> stopped_;
  std::uint64_t polls_ = 0;
  std::vector<std::size_t> order_;
  std::vector<std::size_t> position_;  ///< loop -> position in the order
  std::vector<lb_node> nodes_;
  /// Hash-consing of the tree being built: a node equal to an earlier one of the same tree is
  /// that node. Cleared between trees (the objective, each resource), which keep their own ids.
  std::map<std::tuple<lb_node::kind, double, std::vector<int>, std::vector<int>>, int> alike_;
  /// What relax() gave each expression node of the current tree, by identity (the entry holds
  /// the node); cleared with alike_.
  std::unordered_map<const void*, std::pair<model::expr, int>> relaxed_;
  std::vector<std::vector<double>> tables_;
  /// Tables by a hash of their values (bit patterns): equal tables are one id. Not keyed by the
  /// values themselves, which a bound model's copy (one per loop order tried) would copy again.
  std::unordered_map<std::uint64_t, std::vector<int>> table_ids_;
  std::vector<double> table_min_;
  std::vector<std::tuple<std::size_t, model::expr, int>> table_exprs_;  ///< (loop, expression, table) seen
  std::vector<std::vector<column>> param_columns_;  ///< per loop (empty until asked), memoized
  std::vector<std::vector<std::size_t>> param_loops_;  ///< per model parameter, memoized
  std::vector<bool> param_loops_known_;
  /// Per expression node, memoized by identity; the entry holds the node, so that a temporary
  /// expression's address is not reused for another while it is here.
  std::unordered_map<const void*, std::pair<model::expr, std::vector<std::size_t>>> expr_loops_;
  /// Expressions relax_or_none found unbounded, by identity (the entry holds the node).
  std::unordered_map<const void*, model::expr> unboundable_;
  int objective_root_ = -1;
  std::vector<std::pair<int, double>> resources_;  ///< root, limit
  std::vector<int> direct_;
  std::vector<int> direct_monomials_;
  std::vector<int> resource_monomials_;
  std::vector<double> resource_monomial_limit_;
  std::vector<resource_sum> resource_sums_;
  std::vector<monomial_constraint> cross_constraints_;
  /// Per (loop, resource table, objective table): the loop's front (while couplings are built).
  std::map<std::tuple<std::size_t, int, int>, std::vector<pair_hg>> loop_fronts_;
  void build_cross_constraints();
  std::vector<int> resource_sum_terms_;
  void build_resource_sum(int root, double limit);
  std::vector<std::vector<coupling>> couplings_;  ///< per node id (monomials only)
};

}  // namespace sadsl::tune::detail
