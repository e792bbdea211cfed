// Assembly of a model's C++ source: helpers, the scalar and AVX2 evaluation functions, the
// exported point and batch entry points and the ABI table.
#include <set>
#include <string>

#include "emit_dialect.hpp"
#include "hash.hpp"
#include "sadsl/model/compile.hpp"

namespace sadsl::model {
namespace {

// The prelude includes no header beyond <cstddef> and <cstdint>: <immintrin.h>, <cmath> and
// <limits> took more than half of each model's compile time. Compiler builtins stand in for
// them (GCC and Clang have the same ones), and the AVX2 path uses vector extensions, which
// compile to the same instructions as the intrinsics.
const char* const prelude = R"(#include <cstddef>
#include <cstdint>
// Two evaluation paths: scalar (any platform) and AVX2 (x86-64, four points per instruction, and
// one point in all four lanes, faster than the scalar code), chosen once at run time. Defining
// SADSL_SCALAR_ONLY leaves out the AVX2 path; SADSL_AVX2_ONLY (the JIT's choice on a machine
// with AVX2) leaves out the scalar one, which halves the compile time.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(SADSL_SCALAR_ONLY)
#define SADSL_HAVE_AVX2_PATH 1
#endif
#if defined(SADSL_AVX2_ONLY) && !defined(SADSL_HAVE_AVX2_PATH)
#error "SADSL_AVX2_ONLY needs the AVX2 path: x86-64, GCC or Clang, no SADSL_SCALAR_ONLY"
#endif

namespace {

// The fields of sadsl::model::metrics (12 doubles, in this order) and of device_limits (ABI 2).
enum sadsl_metric {
  sadsl_latency, sadsl_latency_prologue, sadsl_latency_main, sadsl_latency_epilogue, sadsl_dsp,
  sadsl_bram18k, sadsl_uram, sadsl_lut, sadsl_ff, sadsl_offchip_bytes, sadsl_legal, sadsl_feasible, sadsl_metric_count
};
struct sadsl_limits {
  double dsp, bram18k, uram;
};

// Odyssey's power-of-two test (log2 is an integer): positive, finite, zero mantissa bits.
inline bool sadsl_power_of_two(double x) {
  std::uint64_t bits;
  __builtin_memcpy(&bits, &x, sizeof bits);
  return (x > 0) & (x <= __DBL_MAX__) & ((bits & 0xFFFFFFFFFFFFFull) == 0);
}

// b divides a (exact for integers below 2^53).
inline bool sadsl_divides(double b, double a) {
  const double q = a / b;
  return (b != 0) & (q == __builtin_floor(q));
}

// The largest power of two dividing the integer |a| (below 2^52), at most b (a power of two):
// the low 52 bits of |a| + 2^52 are |a|, or'ing in b's bit caps their lowest set bit, and that
// bit put back above 2^52 is the value. Bit for bit the interpreter's operations, on any input.
inline double sadsl_pow2_divisor(double a, double b) {
  const double big = 0x1p52, size = __builtin_fabs(a) + big, cap = b + big;
  std::uint64_t bits, capped, base;
  __builtin_memcpy(&bits, &size, sizeof bits);
  __builtin_memcpy(&capped, &cap, sizeof capped);
  __builtin_memcpy(&base, &big, sizeof base);
  bits |= capped;
  const std::uint64_t lowest = (bits & (~bits + 1)) | base;
  double value;
  __builtin_memcpy(&value, &lowest, sizeof value);
  return value - big;
}
// 1 / b for b a power of two in [1, 2^51] (sadsl_pow2_divisor's values, whatever its input): the
// exponent negated (2^-k has the bits 0x7FE0... less those of 2^k), the quotient exactly.
inline double sadsl_pow2_reciprocal(double b) {
  std::uint64_t bits;
  __builtin_memcpy(&bits, &b, sizeof bits);
  bits = 0x7FE0000000000000ull - bits;
  double value;
  __builtin_memcpy(&value, &bits, sizeof value);
  return value;
}

// The sum over k = 0..n-1 of floor((a k + b) / m), for integers n, a, b >= 0 and m >= 1 whose
// sum stays below 2^50 (every intermediate value below is at most the sum or m (n + 2)). Each
// round takes the whole quotients of a and b out, then counts the lattice points under the
// line the other way round (a and m swap roles, as in Euclid's algorithm): O(log m) rounds.
inline std::int64_t sadsl_floor_sum(std::int64_t n, std::int64_t a, std::int64_t b, std::int64_t m) {
  std::int64_t total = 0;
  while (n > 0) {
    if (a >= m) {
      total += (a / m) * (n * (n - 1) / 2);
      a %= m;
    }
    if (b >= m) {
      total += (b / m) * n;
      b %= m;
    }
    const std::int64_t highest = a * n + b;
    if (highest < m) break;
    n = highest / m;
    b = highest % m;
    const std::int64_t swap = m;
    m = a;
    a = swap;
  }
  return total;
}

// The loop for i = lo..hi of total += ceil((c + i d) / m), or floor where !up, gives exactly the
// closed form's value when every operand is an integer, lo, c, d >= 0, 1 <= m <= 2^24,
// hi <= 2^24 and (hi + 1) (c + hi d + m) <= 2^50: every c + i d and partial total is then an
// integer below 2^50, computed exactly, and the quotient of such an integer by m is off by less
// than 1 / (8 m), so it rounds to the right side of every integer. Elsewhere the emitted code
// runs the loop.
inline bool sadsl_integral(double x) { return x - x == 0 && x == __builtin_floor(x); }
inline bool sadsl_affine_sum_exact(double lo, double hi, double c, double d, double m) {
  return sadsl_integral(lo) & sadsl_integral(hi) & sadsl_integral(c) & sadsl_integral(d) & sadsl_integral(m) &
         (lo >= 0) & (c >= 0) & (d >= 0) & (m >= 1) & (m <= 16777216.0) & (hi <= 16777216.0) &
         ((hi + 1) * (c + hi * d + m) <= 1125899906842624.0);
}
inline double sadsl_affine_sum(double lo, double hi, double c, double d, double m, bool up) {
  const auto first = static_cast<std::int64_t>(lo), last = static_cast<std::int64_t>(hi);
  if (last < first) return 0.0;
  const auto slope = static_cast<std::int64_t>(d), divisor = static_cast<std::int64_t>(m);
  const std::int64_t offset = static_cast<std::int64_t>(c) + first * slope + (up ? divisor - 1 : 0);
  return static_cast<double>(sadsl_floor_sum(last - first + 1, slope, offset, divisor));
}

#ifdef SADSL_HAVE_AVX2_PATH
// Four lanes of doubles, and the masks that comparisons of them give (all bits set or clear).
typedef double sadsl_v4d __attribute__((vector_size(32)));
typedef std::int64_t sadsl_v4i __attribute__((vector_size(32)));

__attribute__((target("avx2"))) inline sadsl_v4d sadsl_splat(double x) { return sadsl_v4d{x, x, x, x}; }
__attribute__((target("avx2"))) inline void sadsl_store(double* p, sadsl_v4d v) { __builtin_memcpy(p, &v, sizeof v); }
// One parameter of four consecutive points (rows of `stride` doubles), and back.
__attribute__((target("avx2"))) inline sadsl_v4d sadsl_gather(const double* p, std::size_t stride) {
  return sadsl_v4d{p[0], p[stride], p[2 * stride], p[3 * stride]};
}
__attribute__((target("avx2"))) inline void sadsl_scatter(double* p, std::size_t stride, sadsl_v4d v) {
  p[0] = v[0];
  p[stride] = v[1];
  p[2 * stride] = v[2];
  p[3 * stride] = v[3];
}
// Rounding modes of vroundpd: toward -infinity or +infinity, without the inexact exception.
__attribute__((target("avx2"))) inline sadsl_v4d sadsl_floor(sadsl_v4d x) { return __builtin_ia32_roundpd256(x, 0x9); }
__attribute__((target("avx2"))) inline sadsl_v4d sadsl_ceil(sadsl_v4d x) { return __builtin_ia32_roundpd256(x, 0xA); }
// vminpd(x, y) = x < y ? x : y and vmaxpd(x, y) = x > y ? x : y, lane by lane.
__attribute__((target("avx2"))) inline sadsl_v4d sadsl_min(sadsl_v4d x, sadsl_v4d y) { return __builtin_ia32_minpd256(x, y); }
__attribute__((target("avx2"))) inline sadsl_v4d sadsl_max(sadsl_v4d x, sadsl_v4d y) { return __builtin_ia32_maxpd256(x, y); }
__attribute__((target("avx2"))) inline sadsl_v4d sadsl_one_if(sadsl_v4i mask) {
  return (sadsl_v4d)(mask & (sadsl_v4i)sadsl_splat(1.0));
}

__attribute__((target("avx2"))) inline sadsl_v4i sadsl_power_of_two_avx2(sadsl_v4d x) {
  const std::int64_t m = 0xFFFFFFFFFFFFFll;
  const sadsl_v4i zero_mantissa = ((sadsl_v4i)x & sadsl_v4i{m, m, m, m}) == sadsl_v4i{0, 0, 0, 0};
  return (x > sadsl_splat(0.0)) & (x <= sadsl_splat(__DBL_MAX__)) & zero_mantissa;
}

__attribute__((target("avx2"))) inline sadsl_v4i sadsl_divides_avx2(sadsl_v4d b, sadsl_v4d a) {
  const sadsl_v4d q = a / b;
  return (b != sadsl_splat(0.0)) & (q == sadsl_floor(q));
}
// sadsl_pow2_divisor in four lanes, in unsigned lanes (the negation wraps).
typedef std::uint64_t sadsl_v4u __attribute__((vector_size(32)));
__attribute__((target("avx2"))) inline sadsl_v4d sadsl_pow2_divisor_avx2(sadsl_v4d a, sadsl_v4d b) {
  const sadsl_v4d big = sadsl_splat(0x1p52);
  const std::uint64_t magnitude = 0x7FFFFFFFFFFFFFFFull;
  const sadsl_v4d size = (sadsl_v4d)((sadsl_v4u)a & sadsl_v4u{magnitude, magnitude, magnitude, magnitude});
  const sadsl_v4u bits = (sadsl_v4u)(size + big) | (sadsl_v4u)(b + big);
  return (sadsl_v4d)((bits & (~bits + 1)) | (sadsl_v4u)big) - big;
}
__attribute__((target("avx2"))) inline sadsl_v4d sadsl_pow2_reciprocal_avx2(sadsl_v4d b) {
  const std::uint64_t negate = 0x7FE0000000000000ull;
  return (sadsl_v4d)(sadsl_v4u{negate, negate, negate, negate} - (sadsl_v4u)b);
}
// sadsl_affine_sum_exact and sadsl_affine_sum for four lanes, in doubles: under the exactness
// conditions every value below is an integer under 2^50 and every quotient's floor is exact (as
// in the loop), so each lane's total is the scalar one. Lanes whose count has ended keep their
// values (a blend), and the rounds go on while some lane has lattice points left.
__attribute__((target("avx2"))) inline sadsl_v4i sadsl_integral_avx2(sadsl_v4d x) {
  return ((x - x) == sadsl_splat(0.0)) & (x == sadsl_floor(x));
}
__attribute__((target("avx2"))) inline bool sadsl_affine_sum_exact_avx2(sadsl_v4d lo, sadsl_v4d hi, sadsl_v4d c, sadsl_v4d d,
                                                                        sadsl_v4d m) {
  const sadsl_v4d zero = sadsl_splat(0.0), one = sadsl_splat(1.0), most = sadsl_splat(16777216.0);
  const sadsl_v4i ok = sadsl_integral_avx2(lo) & sadsl_integral_avx2(hi) & sadsl_integral_avx2(c) & sadsl_integral_avx2(d) &
                       sadsl_integral_avx2(m) & (lo >= zero) & (c >= zero) & (d >= zero) & (m >= one) & (m <= most) &
                       (hi <= most) & ((hi + one) * (c + hi * d + m) <= sadsl_splat(1125899906842624.0));
  return (ok[0] & ok[1] & ok[2] & ok[3]) != 0;
}
__attribute__((target("avx2"))) inline sadsl_v4d sadsl_select(sadsl_v4i mask, sadsl_v4d yes, sadsl_v4d no) {
  return (sadsl_v4d)((mask & (sadsl_v4i)yes) | (~mask & (sadsl_v4i)no));
}
__attribute__((target("avx2"))) inline sadsl_v4d sadsl_affine_sum_avx2(sadsl_v4d lo, sadsl_v4d hi, sadsl_v4d c, sadsl_v4d d,
                                                                      sadsl_v4d m, bool up) {
  const sadsl_v4d zero = sadsl_splat(0.0), one = sadsl_splat(1.0);
  sadsl_v4d n = hi - lo + one, a = d, b = c + lo * d + (up ? m - one : zero), total = zero;
  sadsl_v4i active = n > zero;
  while ((active[0] | active[1] | active[2] | active[3]) != 0) {
    const sadsl_v4d whole_a = sadsl_floor(a / m), whole_b = sadsl_floor(b / m);
    total = total + (sadsl_v4d)(active & (sadsl_v4i)(whole_a * (n * (n - one) * sadsl_splat(0.5)) + whole_b * n));
    const sadsl_v4d rest_a = a - whole_a * m, rest_b = b - whole_b * m;
    const sadsl_v4d highest = rest_a * n + rest_b;
    const sadsl_v4i more = active & (highest >= m);
    const sadsl_v4d next_n = sadsl_floor(highest / m);
    n = sadsl_select(more, next_n, n);
    b = sadsl_select(more, highest - next_n * m, b);
    const sadsl_v4d swap = m;
    m = sadsl_select(more, rest_a, m);
    a = sadsl_select(more, swap, a);
    active = more;
  }
  return total;
}
#endif

// Whether the AVX2 path runs: checked once, at the first evaluation.
inline bool sadsl_runs_avx2() {
#if defined(SADSL_AVX2_ONLY)
  return true;
#elif defined(SADSL_HAVE_AVX2_PATH)
  static const bool has_avx2 = __builtin_cpu_supports("avx2");
  return has_avx2;
#else
  return false;
#endif
}

)";

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

std::string evaluation_code(const design_model& model) {
  return "#ifndef SADSL_AVX2_ONLY\n" + emit::evaluation_function(model, emit::scalar_dialect()) +
         "#endif\n\n#ifdef SADSL_HAVE_AVX2_PATH\n" + emit::evaluation_function(model, emit::avx2_dialect()) + "#endif\n";
}

// On the AVX2 path points go four at a time through sadsl_evaluate_avx2, which reads and writes
// their parameters in place; its metrics come back in lanes and are transposed. A single point
// (and the rest of a batch) goes through it in all four lanes (a row stride of 0), which is
// faster than the scalar function. Elsewhere every point goes through the scalar function.
std::string entry_code(const std::string& symbol, std::size_t parameters) {
  std::string n = std::to_string(parameters);
  return "#ifdef SADSL_HAVE_AVX2_PATH\n"
         "__attribute__((target(\"avx2\"))) static void " + symbol + "_point_avx2(double* point, double* metrics,\n"
         "    const sadsl_limits* limits) {\n"
         "  double out[sadsl_metric_count * 4];\n"
         "  sadsl_evaluate_avx2(point, 0, out, limits);\n"
         "  for (std::size_t k = 0; k < sadsl_metric_count; ++k) metrics[k] = out[4 * k];\n"
         "}\n\n"
         "__attribute__((target(\"avx2\"))) static void " + symbol + "_batch_avx2(std::size_t count, double* points,\n"
         "    double* metrics, const sadsl_limits* limits) {\n"
         "  constexpr std::size_t width = " + n + ";\n"
         "  std::size_t start = 0;\n"
         "  for (; start + 4 <= count; start += 4) {\n"
         "    double out[sadsl_metric_count * 4];\n"
         "    sadsl_evaluate_avx2(points + start * width, width, out, limits);\n"
         "    for (std::size_t l = 0; l < 4; ++l)\n"
         "      for (std::size_t k = 0; k < sadsl_metric_count; ++k) metrics[(start + l) * sadsl_metric_count + k] = out[4 * k + l];\n"
         "  }\n"
         "  for (; start < count; ++start) " + symbol + "_point_avx2(points + start * width, metrics + start * sadsl_metric_count, limits);\n"
         "}\n"
         "#endif\n\n"
         "static void " + symbol + "_point(double* point, void* out, const void* limits) {\n"
         "  double* metrics = static_cast<double*>(out);\n"
         "  const sadsl_limits* device = static_cast<const sadsl_limits*>(limits);\n"
         "#ifdef SADSL_HAVE_AVX2_PATH\n"
         "  if (sadsl_runs_avx2()) return " + symbol + "_point_avx2(point, metrics, device);\n"
         "#endif\n"
         "#ifndef SADSL_AVX2_ONLY\n"
         "  sadsl_evaluate(point, metrics, device);\n"
         "#endif\n"
         "}\n\n"
         "static void " + symbol + "_batch(std::size_t count, double* points, void* out, const void* limits) {\n"
         "  double* metrics = static_cast<double*>(out);\n"
         "  const sadsl_limits* device = static_cast<const sadsl_limits*>(limits);\n"
         "#ifdef SADSL_HAVE_AVX2_PATH\n"
         "  if (sadsl_runs_avx2()) return " + symbol + "_batch_avx2(count, points, metrics, device);\n"
         "#endif\n"
         "#ifndef SADSL_AVX2_ONLY\n"
         "  constexpr std::size_t width = " + n + ";\n"
         "  for (std::size_t start = 0; start < count; ++start)\n"
         "    sadsl_evaluate(points + start * width, metrics + start * sadsl_metric_count, device);\n"
         "#endif\n"
         "}\n\n";
}

// The entry points, after the model's anonymous namespace, or inside its own namespace (a
// function with C linkage may be declared in a namespace).
std::string exports(const design_model& model, const std::string& hash, bool own_namespace) {
  std::string symbol = "sadsl_model_" + hash;
  return std::string(own_namespace ? "\n" : "\n}  // namespace\n\n") + "extern \"C\" {\n\n" +
         entry_code(symbol, model.params.size()) +
         "struct " + symbol + "_abi_t {\n  unsigned version, parameter_count;\n  const char* model_name;\n"
         "  const char* model_hash;\n  void (*point)(double*, void*, const void*);\n"
         "  void (*batch)(std::size_t, double*, void*, const void*);\n};\n\n"
         "const void* " + symbol + "_abi() {\n"
         "  static const " + symbol + "_abi_t abi = {" + std::to_string(compiled_abi::current_version) + ", " + std::to_string(model.params.size()) + ", \"" +
         escaped(model.name) + "\", \"" + hash + "\", " + symbol + "_point, " + symbol +
         "_batch};\n  return &abi;\n}\n\n}  // extern \"C\"\n";
}

}  // namespace

std::string model_hash(const design_model& model) { return content_hash(evaluation_code(model)); }

namespace {

std::string registration(const std::string& hash) {
  return "\nextern \"C\" int sadsl_register_ahead_of_time_model(const void* abi);\n"
         "[[maybe_unused]] static const int sadsl_registered_" + hash +
         " = sadsl_register_ahead_of_time_model(sadsl_model_" + hash + "_abi());\n";
}

}  // namespace

emitted_model emit_model(const design_model& model, const emit_options& options) {
  std::string code = evaluation_code(model);
  std::string hash = content_hash(code);
  std::string source = "// Generated by sadsl from model \"" + escaped(model.name) + "\" (hash " + hash +
                       "). Do not edit.\n" + prelude + code + exports(model, hash, false);
  if (options.register_ahead_of_time) source += registration(hash);
  return {std::move(source), std::move(hash)};
}

emitted_models emit_models(const std::vector<const design_model*>& models, const emit_options& options) {
  emitted_models out;
  out.source = std::string(prelude) + "\n}  // namespace\n";
  std::set<std::string> emitted;
  for (const design_model* model : models) {
    std::string code = evaluation_code(*model);
    std::string hash = content_hash(code);
    out.hashes.push_back(hash);
    if (!emitted.insert(hash).second) continue;
    out.source += "\n// model \"" + escaped(model->name) + "\"\nnamespace sadsl_model_" + hash + " {\n\n" + code +
                  exports(*model, hash, true);
    if (options.register_ahead_of_time) out.source += registration(hash);
    out.source += "\n}  // namespace sadsl_model_" + hash + "\n";
  }
  return out;
}

std::string emit_cpp(const design_model& model, const emit_options& options) { return emit_model(model, options).source; }

}  // namespace sadsl::model
