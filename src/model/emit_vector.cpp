// The vector forms of a model's evaluation (AVX2: four points per instruction, AVX-512: eight),
// written with GCC / Clang vector extensions, and the helpers they call. Both forms are the same
// text but for the vector width, the instruction set's target attribute and the builtins of
// rounding, min and max, so they compute lane for lane what the scalar form computes.
#include <string>
#include <utility>
#include <vector>

#include "emit_dialect.hpp"
#include "sadsl/error.hpp"

namespace sadsl::model::emit {
namespace {

std::string replaced_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// `item` for each lane (`$` its index), joined by `separator`.
std::string each_lane(std::size_t lanes, const std::string& item, const std::string& separator) {
  std::string out;
  for (std::size_t l = 0; l < lanes; ++l) out += (l ? separator : "") + replaced_all(item, "$", std::to_string(l));
  return out;
}

// Lane l's parameters are row l of `points` (`stride` doubles each; a stride of 0 puts one point
// in every lane), gathered or loaded as vectors of consecutive parameters and transposed
// (sadsl_load_points_<suffix>). Metric k goes to out[lanes * k + l].
class vector_form final : public dialect {
public:
  explicit vector_form(const vector_isa& isa) : isa_(isa) {}
  std::string constant(double v) const override { return isa_.splat + "(" + scalar_dialect().constant(v) + ")"; }
  std::string operation(op kind, const std::string& a, const std::string& b) const override {
    switch (kind) {
      case op::add: return "(" + a + " + " + b + ")";
      case op::sub: return "(" + a + " - " + b + ")";
      case op::mul: return "(" + a + " * " + b + ")";
      case op::div: return "(" + a + " / " + b + ")";
      case op::floor_div: return operation(op::floor, operation(op::div, a, b), "");
      case op::ceil_div: return operation(op::ceil, operation(op::div, a, b), "");
      // sadsl_min(x, y) = x < y ? x : y, exactly the scalar (b < a ? b : a).
      case op::min: return "sadsl_min(" + b + ", " + a + ")";
      case op::max: return "sadsl_max(" + b + ", " + a + ")";
      case op::ceil: return "sadsl_ceil(" + a + ")";
      case op::floor: return "sadsl_floor(" + a + ")";
      case op::pow2_divisor: return "sadsl_pow2_divisor_" + isa_.suffix + "(" + a + ", " + b + ")";
      case op::constant: case op::parameter: case op::index: case op::sum: case op::maximum: break;
    }
    SADSL_INTERNAL_ASSERT(false, "operation() on a leaf, a sum or a maximum");
  }
  std::string power_of_two_reciprocal(const std::string& b) const override {
    return "sadsl_pow2_reciprocal_" + isa_.suffix + "(" + b + ")";
  }
  std::string holds(constraint::kind relation, const std::string& lhs, const std::string& rhs) const override {
    switch (relation) {
      case constraint::kind::at_least: return "(" + lhs + " >= " + rhs + ")";
      case constraint::kind::at_most: return "(" + lhs + " <= " + rhs + ")";
      case constraint::kind::power_of_two: return "sadsl_power_of_two_" + isa_.suffix + "(" + lhs + ")";
      case constraint::kind::divides: return "sadsl_divides_" + isa_.suffix + "(" + lhs + ", " + rhs + ")";
    }
    SADSL_INTERNAL_ASSERT(false, "unknown constraint kind");
  }
  std::string both(const std::string& a, const std::string& b) const override { return "(" + a + " & " + b + ")"; }
  std::string one_if(const std::string& mask) const override { return "sadsl_one_if(" + mask + ")"; }
  std::string value_type() const override { return isa_.values; }
  std::string mask_type() const override { return isa_.masks; }
  std::string all_true() const override { return isa_.masks + "{" + each_lane(isa_.lanes, "-1", ", ") + "}"; }
  // AVX2 gathers each parameter's four lanes (as fast as loading blocks of four and transposing
  // them), AVX-512 loads blocks of eight (7% faster for an MM model than gathering eight lanes).
  std::vector<std::string> load_parameters(std::size_t count) const override {
    if (count == 0 || !isa_.loads_transposed) return {};
    return {isa_.values + " parameters[" + std::to_string(count) + "];",
            "sadsl_load_points_" + isa_.suffix + "(points, stride, " + std::to_string(count) + ", parameters);"};
  }
  std::string load_parameter(std::size_t i) const override {
    if (isa_.loads_transposed) return "parameters[" + std::to_string(i) + "]";
    return isa_.gather + "(points + " + std::to_string(i) + ", stride)";
  }
  std::string store_parameter(std::size_t i, const std::string& value) const override {
    return "sadsl_scatter(points + " + std::to_string(i) + ", stride, " + value + ");";
  }
  std::string store_metric(const std::string& field, const std::string& value) const override {
    return "sadsl_store(out + " + std::to_string(isa_.lanes) + " * sadsl_" + field + ", " + value + ");";
  }
  std::string limit(const std::string& field) const override { return isa_.splat + "(limits->" + field + ")"; }
  std::string signature() const override {
    return "__attribute__((target(\"" + isa_.target + "\"))) inline void sadsl_evaluate_" + isa_.suffix +
           "(double* points, std::size_t stride, double* out, const sadsl_limits* limits)";
  }
  std::string core_signature() const override {
    return "__attribute__((target(\"" + isa_.target + "\"), SADSL_SHARED)) static void sadsl_core_" + isa_.suffix +
           "([[maybe_unused]] double* points, [[maybe_unused]] std::size_t stride, double* out, const sadsl_limits* limits,\n    "
           "[[maybe_unused]] const std::uint32_t* counts)";
  }
  std::string load_parameter_at(const std::string& index) const override {
    if (isa_.loads_transposed) return "parameters[" + index + "]";
    return isa_.gather + "(points + " + index + ", stride)";
  }
  // One loop for all lanes: each lane's index starts at its own lower bound and steps by 1.0, as
  // the scalar loop's does, and the lane adds a term while its index is within its own bound
  // (else +0.0, which leaves its total as it is), so each lane adds the terms the scalar code adds,
  // in the same order, for any bounds. The loop ends when no lane is within its bound. A lane
  // whose bounds are not finite is NaN.
  std::vector<std::string> sum_open(const std::string& total, const std::string& index, const std::string& lo,
                                    const std::string& hi) const override {
    std::string ok = total + "_ok", on = total + "_on", zero = isa_.splat + "(0.0)";
    return {"const " + isa_.masks + " " + ok + " = ((" + lo + " - " + lo + ") == " + zero + ") & ((" + hi + " - " + hi +
                ") == " + zero + ");",
            isa_.values + " " + total + " = (" + isa_.values + ")((" + isa_.masks + ")" + isa_.splat +
                "(__builtin_nan(\"\")) & ~" + ok + ");",
            "for (" + isa_.values + " " + index + " = " + lo + ";; " + index + " = " + index + " + " + isa_.splat + "(1.0)) {",
            "  const " + isa_.masks + " " + on + " = " + ok + " & (" + index + " <= " + hi + ");",
            "  if (!sadsl_any(" + on + ")) break;"};
  }
  std::vector<std::string> sum_close(const std::string& total, const std::string&, const std::string&,
                                     const std::string&, const std::string& term) const override {
    return {total + " = " + total + " + (" + isa_.values + ")(" + total + "_on & (" + isa_.masks + ")" + term + ");"};
  }
  // Lane by lane as the scalar form: a lane within its bound takes the term where it is greater
  // or NaN.
  std::vector<std::string> maximum_close(const std::string& total, const std::string& term) const override {
    std::string take = total + "_take";
    return {"const " + isa_.masks + " " + take + " = " + total + "_on & ((" + isa_.masks + ")(" + term + " > " + total +
                ") | (" + isa_.masks + ")(" + term + " != " + term + "));",
            total + " = (" + isa_.values + ")((" + take + " & (" + isa_.masks + ")" + term + ") | (~" + take + " & (" +
                isa_.masks + ")" + total + "));"};
  }
  std::string affine_sum_exact(const std::string& lo, const std::string& hi, const std::string& c, const std::string& d,
                               const std::string& m, bool settled) const override {
    return std::string(settled ? "sadsl_affine_sum_exact_settled_" : "sadsl_affine_sum_exact_") + isa_.suffix + "(" + lo +
           ", " + hi + ", " + c + ", " + d + ", " + m + ")";
  }
  std::string affine_sum(const std::string& lo, const std::string& hi, const std::string& c, const std::string& d,
                         const std::string& m, bool up) const override {
    return "sadsl_affine_sum_" + isa_.suffix + "(" + lo + ", " + hi + ", " + c + ", " + d + ", " + m +
           (up ? ", true)" : ", false)");
  }

  std::vector<std::string> affine_sums(const std::vector<std::string>& lo, const std::vector<std::string>& hi,
                                       const std::string& c, const std::string& d, const std::string& m, bool up,
                                       const std::vector<std::string>& totals) const override {
    auto listed = [](const std::vector<std::string>& names) {
      std::string out;
      for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
      return "{" + out + "}";
    };
    const std::string& first = totals.front();
    std::vector<std::string> out{
        "const " + isa_.values + " " + first + "_lo[] = " + listed(lo) + ", " + first + "_hi[] = " + listed(hi) + ";",
        isa_.values + " " + first + "_totals[" + std::to_string(totals.size()) + "];",
        "sadsl_affine_sums_" + isa_.suffix + "<" + std::to_string(totals.size()) + ">(" + first + "_lo, " + first +
            "_hi, " + c + ", " + d + ", " + m + (up ? ", true, " : ", false, ") + first + "_totals);"};
    for (std::size_t s = 0; s < totals.size(); ++s)
      out.push_back(totals[s] + " = " + first + "_totals[" + std::to_string(s) + "];");
    return out;
  }

private:
  const vector_isa& isa_;
};

// The helpers of one vector form. `$D`, `$I`, `$U` are its double, mask and unsigned vector types,
// `$T` its target attribute, `$S` its suffix, `$SPLAT` and `$GATHER` its splat and gather (the
// other helpers overload on the vector type); `$ALL(x)`, `$ANY(x)` and `$REP(x)` stand for
// x[0] & x[1] & .., x[0] | x[1] | .. and x, x, .. over the lanes.
const char* const helpers_text = R"(
__attribute__(($T)) inline $D $SPLAT(double x) { return $D{$REP(x)}; }
__attribute__(($T)) inline void sadsl_store(double* p, $D v) { __builtin_memcpy(p, &v, sizeof v); }
// One parameter of consecutive points (rows of `stride` doubles), and back.
__attribute__(($T)) inline $D $GATHER(const double* p, std::size_t stride) {
  return $D{$GATHER_LANES};
}
__attribute__(($T)) inline void sadsl_scatter(double* p, std::size_t stride, $D v) {
$SCATTER_LANES
}
$ROUNDING
__attribute__(($T)) inline $D sadsl_one_if($I mask) {
  return ($D)(mask & ($I)$SPLAT(1.0));
}

__attribute__(($T)) inline $I sadsl_power_of_two_$S($D x) {
  const std::int64_t m = 0xFFFFFFFFFFFFFll;
  const $I zero_mantissa = (($I)x & $I{$REP(m)}) == $I{$REP(0)};
  return (x > $SPLAT(0.0)) & (x <= $SPLAT(__DBL_MAX__)) & zero_mantissa;
}

__attribute__(($T)) inline $I sadsl_divides_$S($D b, $D a) {
  const $D q = a / b;
  return (b != $SPLAT(0.0)) & (q == sadsl_floor(q));
}
// sadsl_pow2_divisor lane by lane, in unsigned lanes (the negation wraps).
__attribute__(($T)) inline $D sadsl_pow2_divisor_$S($D a, $D b) {
  const $D big = $SPLAT(0x1p52);
  const std::uint64_t magnitude = 0x7FFFFFFFFFFFFFFFull;
  const $D size = ($D)(($U)a & $U{$REP(magnitude)});
  const $U bits = ($U)(size + big) | ($U)(b + big);
  return ($D)((bits & (~bits + 1)) | ($U)big) - big;
}
__attribute__(($T)) inline $D sadsl_pow2_reciprocal_$S($D b) {
  const std::uint64_t negate = 0x7FE0000000000000ull;
  return ($D)($U{$REP(negate)} - ($U)b);
}
// sadsl_affine_sum_exact and sadsl_affine_sum lane by lane, in doubles: under the exactness
// conditions every value below is an integer under 2^50 and every quotient's floor is exact (as
// in the loop), so each lane's total is the scalar one. Lanes whose count has ended keep their
// values (a blend), and the rounds go on while some lane has lattice points left.
// x - floor(x) is 0 for an integer, in (0, 1) for another finite x and NaN for an infinite one.
__attribute__(($T)) inline $I sadsl_integral($D x) {
  return (x - sadsl_floor(x)) == $SPLAT(0.0);
}
__attribute__(($T)) inline bool sadsl_affine_sum_exact_$S($D lo, $D hi, $D c, $D d, $D m) {
  const $D zero = $SPLAT(0.0), one = $SPLAT(1.0), most = $SPLAT(16777216.0);
  const $I ok = sadsl_integral(lo) & sadsl_integral(hi) & sadsl_integral(c) & sadsl_integral(d) &
                sadsl_integral(m) & (lo >= zero) & (c >= zero) & (d >= zero) & (m >= one) & (m <= most) &
                (hi <= most) & ((hi + one) * (c + hi * d + m) <= $SPLAT(1125899906842624.0));
  return sadsl_all(ok);
}
// The same where c and m are constants the emitter has checked (sadsl_affine_sum_exact's
// conditions on them hold): a third of the operations.
__attribute__(($T)) inline bool sadsl_affine_sum_exact_settled_$S($D lo, $D hi, $D c, $D d, $D m) {
  const $D zero = $SPLAT(0.0), one = $SPLAT(1.0);
  const $I ok = sadsl_integral(lo) & sadsl_integral(hi) & sadsl_integral(d) & (lo >= zero) & (d >= zero) &
                (hi <= $SPLAT(16777216.0)) & ((hi + one) * (c + hi * d + m) <= $SPLAT(1125899906842624.0));
  return sadsl_all(ok);
}
__attribute__(($T)) inline $D sadsl_select($I mask, $D yes, $D no) {
  return ($D)((mask & ($I)yes) | (~mask & ($I)no));
}
// N sums of one c, d and m (bounds lo[s]..hi[s]) in one loop: each round of the count for all of
// them, while one has a lane with lattice points left. A sum whose lanes have all ended keeps its
// values (its rounds are blends with an empty mask), so total[s] is the sum's own count bit for
// bit, as if it ran alone (N = 1, sadsl_affine_sum_$S); the sums' divisions overlap and the loop
// has one exit to predict instead of N.
template <int N>
__attribute__(($T)) inline void sadsl_affine_sums_$S(const $D* lo, const $D* hi, $D c, $D d, $D m0, bool up, $D* total) {
  const $D zero = $SPLAT(0.0), one = $SPLAT(1.0);
  $D n[N], a[N], b[N], m[N];
  $I active[N];
  for (int s = 0; s < N; ++s) {
    n[s] = hi[s] - lo[s] + one;
    a[s] = d;
    b[s] = c + lo[s] * d + (up ? m0 - one : zero);
    m[s] = m0;
    total[s] = zero;
    active[s] = n[s] > zero;
  }
  for (;;) {
    $I any = active[0];
    for (int s = 1; s < N; ++s) any = any | active[s];
    if (!sadsl_any(any)) break;
    for (int s = 0; s < N; ++s) {
      const $D whole_a = sadsl_floor(a[s] / m[s]), whole_b = sadsl_floor(b[s] / m[s]);
      total[s] = total[s] + ($D)(active[s] & ($I)(whole_a * (n[s] * (n[s] - one) * $SPLAT(0.5)) + whole_b * n[s]));
      const $D rest_a = a[s] - whole_a * m[s], rest_b = b[s] - whole_b * m[s];
      const $D highest = rest_a * n[s] + rest_b;
      const $I more = active[s] & (highest >= m[s]);
      const $D next_n = sadsl_floor(highest / m[s]);
      n[s] = sadsl_select(more, next_n, n[s]);
      b[s] = sadsl_select(more, highest - next_n * m[s], b[s]);
      const $D swap = m[s];
      m[s] = sadsl_select(more, rest_a, m[s]);
      a[s] = sadsl_select(more, swap, a[s]);
      active[s] = more;
    }
  }
}
// One sum: sadsl_affine_sums_$S's rounds for it alone.
__attribute__(($T)) inline $D sadsl_affine_sum_$S($D lo, $D hi, $D c, $D d, $D m, bool up) {
  $D total;
  sadsl_affine_sums_$S<1>(&lo, &hi, c, d, m, up, &total);
  return total;
}
$TRANSPOSE
)";

// Rounding toward -infinity or +infinity without the inexact exception, and vminpd(x, y) =
// x < y ? x : y, vmaxpd(x, y) = x > y ? x : y, lane by lane: the same operations in both forms;
// and the tests of a mask's lanes.
const char* const avx2_rounding = R"(// Rounding modes of vroundpd: toward -infinity or +infinity, without the inexact exception.
__attribute__(($T)) inline $D sadsl_floor($D x) { return __builtin_ia32_roundpd256(x, 0x9); }
__attribute__(($T)) inline $D sadsl_ceil($D x) { return __builtin_ia32_roundpd256(x, 0xA); }
// vminpd(x, y) = x < y ? x : y and vmaxpd(x, y) = x > y ? x : y, lane by lane.
__attribute__(($T)) inline $D sadsl_min($D x, $D y) { return __builtin_ia32_minpd256(x, y); }
__attribute__(($T)) inline $D sadsl_max($D x, $D y) { return __builtin_ia32_maxpd256(x, y); }
// Whether some / every lane of a mask (each lane all ones or all zeros) is set: the lanes' sign
// bits (vmovmskpd), not four lane extractions.
__attribute__(($T)) inline bool sadsl_any($I m) { return __builtin_ia32_movmskpd256(($D)m) != 0; }
__attribute__(($T)) inline bool sadsl_all($I m) { return __builtin_ia32_movmskpd256(($D)m) == 0xF; })";

// vrndscalepd's immediates 0x9 and 0xA are vroundpd's; its last operand and that of vminpd /
// vmaxpd (4) is the current rounding direction. GCC's builtins of vminpd and vmaxpd take a
// pass-through value and a mask besides, Clang's do not.
const char* const avx512_rounding = R"(// Rounding of vrndscalepd: toward -infinity or +infinity, without the inexact exception.
__attribute__(($T)) inline $D sadsl_floor($D x) { return __builtin_ia32_rndscalepd_mask(x, 0x9, x, (unsigned char)-1, 4); }
__attribute__(($T)) inline $D sadsl_ceil($D x) { return __builtin_ia32_rndscalepd_mask(x, 0xA, x, (unsigned char)-1, 4); }
// vminpd(x, y) = x < y ? x : y and vmaxpd(x, y) = x > y ? x : y, lane by lane.
#ifdef __clang__
__attribute__(($T)) inline $D sadsl_min($D x, $D y) { return __builtin_ia32_minpd512(x, y, 4); }
__attribute__(($T)) inline $D sadsl_max($D x, $D y) { return __builtin_ia32_maxpd512(x, y, 4); }
#else
__attribute__(($T)) inline $D sadsl_min($D x, $D y) { return __builtin_ia32_minpd512_mask(x, y, x, (unsigned char)-1, 4); }
__attribute__(($T)) inline $D sadsl_max($D x, $D y) { return __builtin_ia32_maxpd512_mask(x, y, x, (unsigned char)-1, 4); }
#endif
// Whether some / every lane of a mask (each lane all ones or all zeros) is set: the halves or'ed
// (and'ed) and their sign bits taken (vmovmskpd), not eight lane extractions (a round of the
// closed-form sums' loop waited for them). __builtin_shufflevector is GCC 12's and Clang's.
#if defined(__clang__) || __GNUC__ >= 12
__attribute__(($T)) inline bool sadsl_any($I m) {
  typedef double half __attribute__((vector_size(32)));
  return __builtin_ia32_movmskpd256((half)(__builtin_shufflevector(m, m, 0, 1, 2, 3) | __builtin_shufflevector(m, m, 4, 5, 6, 7))) != 0;
}
__attribute__(($T)) inline bool sadsl_all($I m) {
  typedef double half __attribute__((vector_size(32)));
  return __builtin_ia32_movmskpd256((half)(__builtin_shufflevector(m, m, 0, 1, 2, 3) & __builtin_shufflevector(m, m, 4, 5, 6, 7))) == 0xF;
}
#else
__attribute__(($T)) inline bool sadsl_any($I m) { return ($ANY(m)) != 0; }
__attribute__(($T)) inline bool sadsl_all($I m) { return ($ALL(m)) != 0; }
#endif)";

// Points in and metrics out, transposed in registers: the parameters of a group of points are
// rows of `stride` doubles (one row per lane), the evaluation wants a vector per parameter, and
// its metrics (a vector each in `out`) go back as rows of 12 doubles. Blocks of lanes x lanes
// are loaded or stored as vectors and transposed with shuffles, rather than gathered and
// scattered element by element (a fifth of the batch's time each way for an MM model with
// AVX-512). __builtin_shufflevector is GCC
// 12's and Clang's; older compilers gather and scatter.
const char* const avx2_transpose = R"(#if defined(__clang__) || __GNUC__ >= 12
#define SADSL_TRANSPOSE_IN_REGISTERS 1
// in[k][l] -> out[l][k].
__attribute__(($T)) inline void sadsl_transpose_$S(const $D* in, $D* out) {
  const $D t0 = __builtin_shufflevector(in[0], in[1], 0, 4, 2, 6), t1 = __builtin_shufflevector(in[0], in[1], 1, 5, 3, 7);
  const $D t2 = __builtin_shufflevector(in[2], in[3], 0, 4, 2, 6), t3 = __builtin_shufflevector(in[2], in[3], 1, 5, 3, 7);
  out[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
  out[1] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  out[2] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  out[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}
#endif
__attribute__(($T)) inline void sadsl_store_points_$S(const double* out, double* metrics) {
  static_assert(sadsl_metric_count == 12, "three blocks of four metrics");
#ifdef SADSL_TRANSPOSE_IN_REGISTERS
  $D r[12], point[4];
  __builtin_memcpy(r, out, sizeof r);
  for (int g = 0; g < 12; g += 4) {
    sadsl_transpose_$S(r + g, point);
    for (int l = 0; l < 4; ++l) __builtin_memcpy(metrics + 12 * l + g, &point[l], sizeof point[l]);
  }
#else
  for (std::size_t l = 0; l < 4; ++l)
    for (std::size_t k = 0; k < sadsl_metric_count; ++k) metrics[l * sadsl_metric_count + k] = out[4 * k + l];
#endif
})";

const char* const avx512_transpose = R"(#if defined(__clang__) || __GNUC__ >= 12
#define SADSL_TRANSPOSE_IN_REGISTERS 1
// in[k][l] -> out[l][k]: pairs of rows (even lanes, odd lanes), then quads of rows (lanes m and
// m + 4), then halves.
__attribute__(($T)) inline void sadsl_transpose_$S(const $D* in, $D* out) {
  $D t[8], u[8];
  for (int k = 0; k < 8; k += 2) {
    t[k] = __builtin_shufflevector(in[k], in[k + 1], 0, 8, 2, 10, 4, 12, 6, 14);
    t[k + 1] = __builtin_shufflevector(in[k], in[k + 1], 1, 9, 3, 11, 5, 13, 7, 15);
  }
  for (int k = 0; k < 8; k += 4)
    for (int j = 0; j < 2; ++j) {
      u[k + j] = __builtin_shufflevector(t[k + j], t[k + j + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      u[k + j + 2] = __builtin_shufflevector(t[k + j], t[k + j + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  for (int m = 0; m < 4; ++m) {
    out[m] = __builtin_shufflevector(u[m], u[4 + m], 0, 1, 2, 3, 8, 9, 10, 11);
    out[m + 4] = __builtin_shufflevector(u[m], u[4 + m], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}
#endif
__attribute__(($T)) inline void sadsl_store_points_$S(const double* out, double* metrics) {
  static_assert(sadsl_metric_count == 12, "a block of eight metrics and one of four");
#ifdef SADSL_TRANSPOSE_IN_REGISTERS
  $D r[12], point[8];
  __builtin_memcpy(r, out, sizeof r);
  sadsl_transpose_$S(r, point);
  for (int l = 0; l < 8; ++l) __builtin_memcpy(metrics + 12 * l, &point[l], sizeof point[l]);
  // Metrics 8 .. 11: the same transposition of those four rows twice over, the first half of each
  // point's vector stored.
  const $D rest[8] = {r[8], r[9], r[10], r[11], r[8], r[9], r[10], r[11]};
  sadsl_transpose_$S(rest, point);
  for (int l = 0; l < 8; ++l) __builtin_memcpy(metrics + 12 * l + 8, &point[l], sizeof(double) * 4);
#else
  for (std::size_t l = 0; l < 8; ++l)
    for (std::size_t k = 0; k < sadsl_metric_count; ++k) metrics[l * sadsl_metric_count + k] = out[8 * k + l];
#endif
})";

// The parameters of a group of points (rows of `stride` doubles; 0: one point in every lane) as
// a vector each: each block of `lanes` parameters loaded from every row and transposed, the
// parameters after the last whole block gathered.
const char* const load_points = R"(
__attribute__(($T)) inline void sadsl_load_points_$S(const double* points, std::size_t stride, std::size_t count, $D* params) {
  std::size_t first = 0;
#ifdef SADSL_TRANSPOSE_IN_REGISTERS
  constexpr std::size_t lanes = sizeof($D) / sizeof(double);
  for (; first + lanes <= count; first += lanes) {
    $D rows[lanes];
    for (std::size_t l = 0; l < lanes; ++l) __builtin_memcpy(&rows[l], points + l * stride + first, sizeof rows[l]);
    sadsl_transpose_$S(rows, params + first);
  }
#endif
  for (; first < count; ++first) params[first] = $GATHER(points + first, stride);
}
)";

// A model's point and batch entries call these with its core and tile counts (one copy per unit,
// not per model: each model's inlined copy of the loops and transpositions was a third of its
// compile time). A batch goes `lanes` points at a time through `evaluate`, which reads and writes
// their parameters in place; its metrics come back in lanes and are transposed. The points after
// the last whole group go as one group of copies, the last point repeated in the lanes beyond
// them, whose parameters (inferred ones are written in place) and metrics are copied back: a batch
// of 4 costs one AVX-512 evaluation, not four (the exact search evaluates its leaves four at a
// time). A single point goes through `evaluate` in every lane (a row stride of 0), which is
// faster than the scalar function.
const char* const drivers = R"(
typedef void (*sadsl_core_$S)(double* points, std::size_t stride, double* out, const sadsl_limits* limits, const std::uint32_t* counts);
__attribute__(($T, SADSL_SHARED)) inline void sadsl_point_$S(sadsl_core_$S evaluate, const std::uint32_t* counts, double* point,
                                                           double* metrics, const sadsl_limits* limits) {
  constexpr std::size_t lanes = sizeof($D) / sizeof(double);
  double out[sadsl_metric_count * lanes];
  evaluate(point, 0, out, limits, counts);
  for (std::size_t k = 0; k < sadsl_metric_count; ++k) metrics[k] = out[lanes * k];
}
__attribute__(($T, SADSL_SHARED)) inline void sadsl_batch_$S(sadsl_core_$S evaluate, const std::uint32_t* counts, std::size_t width,
                                                           std::size_t count, double* points, double* metrics,
                                                           const sadsl_limits* limits) {
  constexpr std::size_t lanes = sizeof($D) / sizeof(double);
  std::size_t start = 0;
  for (; start + lanes <= count; start += lanes) {
    double out[sadsl_metric_count * lanes];
    evaluate(points + start * width, width, out, limits, counts);
    sadsl_store_points_$S(out, metrics + start * sadsl_metric_count);
  }
  if (start == count) return;
  const std::size_t rest = count - start;
  double out[sadsl_metric_count * lanes], group[sadsl_metric_count * lanes];
  double* rows = static_cast<double*>(__builtin_alloca(sizeof(double) * lanes * (width ? width : 1)));
  for (std::size_t l = 0; l < lanes; ++l)
    __builtin_memcpy(rows + l * width, points + (start + (l < rest ? l : rest - 1)) * width, sizeof(double) * width);
  evaluate(rows, width, out, limits, counts);
  sadsl_store_points_$S(out, group);
  __builtin_memcpy(points + start * width, rows, sizeof(double) * width * rest);
  __builtin_memcpy(metrics + start * sadsl_metric_count, group, sizeof(double) * sadsl_metric_count * rest);
}
)";

// Replaces `$NAME(arg)` by `expand(arg)` wherever it occurs.
template <class Expand>
std::string expanded_calls(std::string text, const std::string& name, Expand expand) {
  std::string head = name + "(";
  for (std::size_t at = text.find(head); at != std::string::npos; at = text.find(head, at)) {
    std::size_t close = text.find(')', at);
    std::string arg = text.substr(at + head.size(), close - at - head.size());
    std::string value = expand(arg);
    text.replace(at, close + 1 - at, value);
    at += value.size();
  }
  return text;
}

}  // namespace

const vector_isa& avx2_isa() {
  static const vector_isa isa{4, "avx2", "avx2", "sadsl_v4d", "sadsl_v4i", "sadsl_v4u", "sadsl_splat", "sadsl_gather", false};
  return isa;
}

const vector_isa& avx512_isa() {
  static const vector_isa isa{8, "avx512", "avx512f", "sadsl_v8d", "sadsl_v8i", "sadsl_v8u", "sadsl_splat_avx512",
                              "sadsl_gather_avx512", true};
  return isa;
}

const dialect& avx2_dialect() {
  static const vector_form instance(avx2_isa());
  return instance;
}

const dialect& avx512_dialect() {
  static const vector_form instance(avx512_isa());
  return instance;
}

std::string vector_helpers(const vector_isa& isa) {
  std::size_t n = isa.lanes, bytes = 8 * n;
  std::string text = "// " + std::to_string(n) + " lanes of doubles, and the masks that comparisons of them give (all bits set or clear).\n"
                     "typedef double " + isa.values + " __attribute__((vector_size(" + std::to_string(bytes) + ")));\n"
                     "typedef std::int64_t " + isa.masks + " __attribute__((vector_size(" + std::to_string(bytes) + ")));\n"
                     "typedef std::uint64_t " + isa.unsigned_lanes + " __attribute__((vector_size(" + std::to_string(bytes) + ")));\n" +
                     helpers_text;
  text = replaced_all(text, "$ROUNDING", n == 4 ? avx2_rounding : avx512_rounding);
  text = replaced_all(text, "$TRANSPOSE", std::string(n == 4 ? avx2_transpose : avx512_transpose) +
                                                (isa.loads_transposed ? load_points : "\n") + "#undef SADSL_TRANSPOSE_IN_REGISTERS" +
                                                drivers);
  std::string gathered, scattered;
  for (std::size_t l = 0; l < n; ++l) {
    std::string row = l == 0 ? "p[0]" : l == 1 ? "p[stride]" : "p[" + std::to_string(l) + " * stride]";
    gathered += (l ? ", " : "") + row;
    scattered += (l ? "\n  " : "  ") + row + " = v[" + std::to_string(l) + "];";
  }
  text = replaced_all(text, "$GATHER_LANES", gathered);
  text = replaced_all(text, "$SCATTER_LANES", scattered);
  text = expanded_calls(text, "$ALL", [&](const std::string& x) { return each_lane(n, x + "[$]", " & "); });
  text = expanded_calls(text, "$ANY", [&](const std::string& x) { return each_lane(n, x + "[$]", " | "); });
  text = expanded_calls(text, "$REP", [&](const std::string& x) { return each_lane(n, x, ", "); });
  for (const auto& [token, value] : std::vector<std::pair<std::string, std::string>>{
           {"$SPLAT", isa.splat}, {"$GATHER", isa.gather}, {"$T", "target(\"" + isa.target + "\")"},
           {"$D", isa.values}, {"$I", isa.masks}, {"$U", isa.unsigned_lanes}, {"$S", isa.suffix}})
    text = replaced_all(text, token, value);
  return text;
}

}  // namespace sadsl::model::emit
