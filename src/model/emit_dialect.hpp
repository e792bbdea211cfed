#pragma once
// Internal: the forms in which a model's evaluation is written as C++: scalar (one point, any
// platform), AVX2 (four points per instruction) and AVX-512 (eight), both x86-64, selected at load
// time. All use the same IEEE operations in the same order, so their results are bit-identical.
#include <string>
#include <vector>

#include "sadsl/model/design_model.hpp"

namespace sadsl::model::emit {

class dialect {
public:
  virtual ~dialect() = default;
  virtual std::string constant(double value) const = 0;
  virtual std::string operation(op kind, const std::string& a, const std::string& b) const = 0;
  /// 1 / b where b is a pow2_divisor's value (a power of two in [1, 2^51] for every input): the
  /// exponent negated, exactly the quotient, without a division.
  virtual std::string power_of_two_reciprocal(const std::string& b) const = 0;
  virtual std::string holds(constraint::kind relation, const std::string& lhs, const std::string& rhs) const = 0;
  virtual std::string both(const std::string& a, const std::string& b) const = 0;  ///< mask and mask
  virtual std::string one_if(const std::string& mask) const = 0;                   ///< 1.0 or 0.0
  virtual std::string value_type() const = 0;
  virtual std::string mask_type() const = 0;
  virtual std::string all_true() const = 0;
  /// Lines before the first load_parameter: where the form reads all `count` parameters at once.
  virtual std::vector<std::string> load_parameters(std::size_t count) const = 0;
  virtual std::string load_parameter(std::size_t index) const = 0;
  virtual std::string store_parameter(std::size_t index, const std::string& value) const = 0;
  virtual std::string store_metric(const std::string& field, const std::string& value) const = 0;
  virtual std::string limit(const std::string& field) const = 0;  ///< limits->field as a value
  virtual std::string signature() const = 0;                        ///< the function head
  /// The head of a model's core (core_function): signature()'s arguments and `counts`, the
  /// parameter indices of the tile counts (a, b for ceil(p_a / p_b), a pair per count). Not
  /// inlined: the models that share a core call one copy. (A vector core that loops over a
  /// batch's groups itself evaluates 3% faster than one called per group, but GCC's value
  /// numbering over the loop makes it 30% costlier to compile.)
  virtual std::string core_signature() const = 0;
  /// A parameter's value read at the index `index` (an expression) before any is inferred.
  virtual std::string load_parameter_at(const std::string& index) const = 0;
  /// A summation: `total` = the sum over `index` = lo, lo + 1, .. while <= hi of `term`, which
  /// the body computes between the lines of sum_open and sum_close; the caller closes the loop's
  /// brace. The terms are added in ascending order of the index, as evaluate() adds them, and a
  /// bound that is not finite makes the total NaN.
  virtual std::vector<std::string> sum_open(const std::string& total, const std::string& index, const std::string& lo,
                                            const std::string& hi) const = 0;
  /// The sum over index = lo..hi of ceil((c + index x d) / m) (`up`) or floor(..), in closed
  /// form; it equals the loop's value where affine_sum_exact holds (a condition, in every lane).
  /// `settled`: c and m are constants that meet the condition's part on them (integers, c >= 0,
  /// 1 <= m <= 2^24), so the check may leave that part out.
  virtual std::string affine_sum_exact(const std::string& lo, const std::string& hi, const std::string& c,
                                       const std::string& d, const std::string& m, bool settled) const = 0;
  virtual std::string affine_sum(const std::string& lo, const std::string& hi, const std::string& c,
                                 const std::string& d, const std::string& m, bool up) const = 0;
  /// Several closed-form sums of one c, d, m and rounding, bounds lo[s]..hi[s], computed in one
  /// loop (`totals[s]` = affine_sum(lo[s], hi[s], ..), bit for bit, where each is exact): the
  /// lines that assign the totals. Empty where the form has no such helper (the scalar one: a
  /// point's sums are branches of their own), and then the sums are computed one by one.
  virtual std::vector<std::string> affine_sums(const std::vector<std::string>& lo, const std::vector<std::string>& hi,
                                               const std::string& c, const std::string& d, const std::string& m,
                                               bool up, const std::vector<std::string>& totals) const;
  virtual std::vector<std::string> sum_close(const std::string& total, const std::string& index, const std::string& lo,
                                             const std::string& hi, const std::string& term) const = 0;
  /// A maximum's loop (model::maximum) opens as a sum's (sum_open: `total` starts at 0, NaN for
  /// a bound that is not finite) and closes with these lines, which keep the larger of `total`
  /// and `term` as evaluate() does: `term` where it is greater or NaN.
  virtual std::vector<std::string> maximum_close(const std::string& total, const std::string& term) const = 0;
};

/// An x86-64 vector instruction set a model's evaluation is written for, and the names of its
/// form's types and helpers.
struct vector_isa {
  std::size_t lanes;           ///< doubles per vector
  std::string suffix;          ///< of its functions: sadsl_evaluate_<suffix>
  std::string target;          ///< the target attribute of its functions
  std::string values, masks, unsigned_lanes;  ///< its vector types
  std::string splat, gather;   ///< its helpers whose arguments are not vectors
  bool loads_transposed;       ///< parameters loaded in blocks and transposed, else gathered
};
const vector_isa& avx2_isa();
const vector_isa& avx512_isa();

const dialect& scalar_dialect();
/// The AVX2 form: sadsl_evaluate_avx2(points, stride, out, limits), four points `stride` doubles
/// apart (0: one point in every lane).
const dialect& avx2_dialect();
/// The AVX-512 form: sadsl_evaluate_avx512(points, stride, out, limits), eight points.
const dialect& avx512_dialect();
/// The types and helpers a vector form's evaluation calls, for the model's prelude.
std::string vector_helpers(const vector_isa& isa);

/// The evaluation of `model` in `form` with its tile counts (model::tile_counts) read from the parameters
/// that the core's `counts` argument names (core_signature), in the order of `counts`: the same
/// text for models that differ only in which tile count goes where, which then share one compiled
/// core. The text names no model and no count.
std::string core_function(const design_model& model, const std::vector<expr>& counts, const dialect& form);

/// Shortest round-trip decimal text of a double (with ".0" when integral).
std::string decimal(double value);

}  // namespace sadsl::model::emit
