// Assembly of a model's C++ source: helpers, the scalar, AVX2 and AVX-512 evaluation functions,
// the exported point and batch entry points and the ABI table.
#include <algorithm>
#include <atomic>
#include <functional>
#include <set>
#include <string>
#include <system_error>
#include <thread>

#include "emit_dialect.hpp"
#include "evaluation_code.hpp"
#include "hash.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/compile.hpp"
#include "sadsl/model/tile_counts.hpp"

namespace sadsl::model {
namespace {

// The prelude includes no header beyond <cstddef> and <cstdint>: <immintrin.h>, <cmath> and
// <limits> took more than half of each model's compile time. Compiler builtins stand in for
// them (GCC and Clang have the same ones), and the vector paths use vector extensions, which
// compile to the same instructions as the intrinsics.
const char* const prelude_head = R"(#include <cstddef>
#include <cstdint>
// Three evaluation paths: scalar (any platform), AVX2 and AVX-512 (x86-64, four and eight points
// per instruction, and one point in every lane, faster than the scalar code), the widest the
// machine runs chosen once at run time. Defining SADSL_SCALAR_ONLY, SADSL_AVX2_ONLY or
// SADSL_AVX512_ONLY (the JIT's choice on a machine with AVX2 or AVX-512) leaves out the others,
// which divides the compile time.
#if defined(SADSL_SCALAR_ONLY) + defined(SADSL_AVX2_ONLY) + defined(SADSL_AVX512_ONLY) > 1
#error "at most one of SADSL_SCALAR_ONLY, SADSL_AVX2_ONLY and SADSL_AVX512_ONLY"
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(SADSL_SCALAR_ONLY) && !defined(SADSL_AVX512_ONLY)
#define SADSL_HAVE_AVX2_PATH 1
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(SADSL_SCALAR_ONLY) && !defined(SADSL_AVX2_ONLY)
#define SADSL_HAVE_AVX512_PATH 1
#endif
#if (defined(SADSL_AVX2_ONLY) && !defined(SADSL_HAVE_AVX2_PATH)) || (defined(SADSL_AVX512_ONLY) && !defined(SADSL_HAVE_AVX512_PATH))
#error "SADSL_AVX2_ONLY and SADSL_AVX512_ONLY need x86-64 and GCC or Clang"
#endif
#if !defined(SADSL_AVX2_ONLY) && !defined(SADSL_AVX512_ONLY)
#define SADSL_HAVE_SCALAR_PATH 1
#endif

// Code that the models of a unit call (the drivers of the vector paths' batches and points, their
// loads of a group's parameters, a core that models share) is compiled once: not inlined into
// its callers and not specialized for them (GCC's noipa; Clang clones no function here).
#if defined(__clang__)
#define SADSL_SHARED noinline
#else
#define SADSL_SHARED noipa
#endif

namespace {
// A model uses some of the helpers below, none all of them.
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif

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
inline int sadsl_integral(double x) { return x - x == 0 && x == __builtin_floor(x); }  // int: & of bools warns
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

)";

const char* const prelude_tail = R"(
// Which vector path runs (the widest this machine has): checked once, at the first evaluation.
inline bool sadsl_runs_avx512() {
#if defined(SADSL_AVX512_ONLY)
  return true;
#elif defined(SADSL_HAVE_AVX512_PATH)
  static const bool has_avx512 = __builtin_cpu_supports("avx512f");
  return has_avx512;
#else
  return false;
#endif
}
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
#ifdef __clang__
#pragma clang diagnostic pop
#endif

)";

// The prelude: helpers of every path, each vector path's under its macro.
const std::string& prelude() {
  static const std::string text = std::string(prelude_head) + "\n#ifdef SADSL_HAVE_AVX2_PATH\n" +
                                  emit::vector_helpers(emit::avx2_isa()) + "#endif\n\n#ifdef SADSL_HAVE_AVX512_PATH\n" +
                                  emit::vector_helpers(emit::avx512_isa()) + "#endif\n" + prelude_tail;
  return text;
}
std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

std::string each_path(const std::function<std::string(const emit::dialect&)>& code) {
  return "#ifdef SADSL_HAVE_SCALAR_PATH\n" + code(emit::scalar_dialect()) + "#endif\n\n#ifdef SADSL_HAVE_AVX2_PATH\n" +
         code(emit::avx2_dialect()) + "#endif\n\n#ifdef SADSL_HAVE_AVX512_PATH\n" + code(emit::avx512_dialect()) +
         "#endif\n";
}

std::string count_table(const std::vector<expr>& counts) {
  std::string table = "// The tile counts ceil(p_a / p_b), a and b each:";
  for (const expr& c : counts) (table += ' ') += to_string(c);
  if (counts.empty()) table += " none";
  table += ".\nstatic const std::uint32_t sadsl_counts[] = {";
  std::vector<std::size_t> operands = count_operands(counts);
  for (std::size_t i = 0; i < operands.size(); ++i) (table += i ? ", " : "") += std::to_string(operands[i]);
  return table + (operands.empty() ? "0};\n" : "};\n");
}


std::string core_namespace(const evaluation_code& code) {
  return "\nnamespace " + code.space() + " {\n\n" + code.core + "\n}  // namespace " + code.space() + "\n\n";
}

// A vector path's entry points: the shared drivers (vector_helpers) with the model's core, tile
// counts and row width.
std::string vector_entry_code(const std::string& symbol, std::size_t parameters, const emit::vector_isa& isa,
                              const std::string& space) {
  std::string s = isa.suffix, target = "__attribute__((target(\"" + isa.target + "\"))) static void ";
  std::string core = space + "::sadsl_core_" + s + ", sadsl_counts";
  return target + symbol + "_point_" + s + "(double* point, double* metrics, const sadsl_limits* limits) {\n"
         "  sadsl_point_" + s + "(" + core + ", point, metrics, limits);\n"
         "}\n\n" +
         target + symbol + "_batch_" + s + "(std::size_t count, double* points, double* metrics,\n"
         "    const sadsl_limits* limits) {\n"
         "  sadsl_batch_" + s + "(" + core + ", " + std::to_string(parameters) + ", count, points, metrics, limits);\n"
         "}\n";
}

// The exported entry points run the widest path the machine has; without a vector path every
// point goes through the scalar function.
std::string entry_code(const std::string& symbol, std::size_t parameters, const std::string& space) {
  std::string n = std::to_string(parameters);
  return "#ifdef SADSL_HAVE_AVX2_PATH\n" + vector_entry_code(symbol, parameters, emit::avx2_isa(), space) +
         "#endif\n\n#ifdef SADSL_HAVE_AVX512_PATH\n" + vector_entry_code(symbol, parameters, emit::avx512_isa(), space) +
         "#endif\n\n"
         "static void " + symbol + "_point(double* point, void* out, const void* limits) {\n"
         "  double* metrics = static_cast<double*>(out);\n"
         "  const sadsl_limits* device = static_cast<const sadsl_limits*>(limits);\n"
         "#ifdef SADSL_HAVE_AVX512_PATH\n"
         "  if (sadsl_runs_avx512()) return " + symbol + "_point_avx512(point, metrics, device);\n"
         "#endif\n"
         "#ifdef SADSL_HAVE_AVX2_PATH\n"
         "  if (sadsl_runs_avx2()) return " + symbol + "_point_avx2(point, metrics, device);\n"
         "#endif\n"
         "#ifdef SADSL_HAVE_SCALAR_PATH\n"
         "  sadsl_evaluate(point, metrics, device);\n"
         "#endif\n"
         "}\n\n"
         "static void " + symbol + "_batch(std::size_t count, double* points, void* out, const void* limits) {\n"
         "  double* metrics = static_cast<double*>(out);\n"
         "  const sadsl_limits* device = static_cast<const sadsl_limits*>(limits);\n"
         "#ifdef SADSL_HAVE_AVX512_PATH\n"
         "  if (sadsl_runs_avx512()) return " + symbol + "_batch_avx512(count, points, metrics, device);\n"
         "#endif\n"
         "#ifdef SADSL_HAVE_AVX2_PATH\n"
         "  if (sadsl_runs_avx2()) return " + symbol + "_batch_avx2(count, points, metrics, device);\n"
         "#endif\n"
         "#ifdef SADSL_HAVE_SCALAR_PATH\n"
         "  constexpr std::size_t width = " + n + ";\n"
         "  for (std::size_t start = 0; start < count; ++start)\n"
         "    sadsl_evaluate(points + start * width, metrics + start * sadsl_metric_count, device);\n"
         "#endif\n"
         "}\n\n";
}

// The entry points, after the model's anonymous namespace, or inside its own namespace (a
// function with C linkage may be declared in a namespace).
std::string exports(const design_model& model, const std::string& hash, const std::string& space, bool own_namespace) {
  std::string symbol = "sadsl_model_" + hash;
  return std::string(own_namespace ? "\n" : "\n}  // namespace\n\n") + "extern \"C\" {\n\n" +
         entry_code(symbol, model.params.size(), space) +
         "struct " + symbol + "_abi_t {\n  unsigned version, parameter_count;\n  const char* model_name;\n"
         "  const char* model_hash;\n  void (*point)(double*, void*, const void*);\n"
         "  void (*batch)(std::size_t, double*, void*, const void*);\n};\n\n"
         "const void* " + symbol + "_abi() {\n"
         "  static const " + symbol + "_abi_t abi = {" + std::to_string(compiled_abi::current_version) + ", " + std::to_string(model.params.size()) + ", \"" +
         escaped(model.name) + "\", \"" + hash + "\", " + symbol + "_point, " + symbol +
         "_batch};\n  return &abi;\n}\n\n}  // extern \"C\"\n";
}

}  // namespace

std::string evaluation_code::hash() const { return content_hash(core + entry); }

evaluation_code evaluation_code_of(const design_model& model) {
  std::vector<expr> counts = tile_counts(model);
  evaluation_code code;
  code.core = each_path([&](const emit::dialect& form) { return emit::core_function(model, counts, form); });
  code.core_hash = content_hash(code.core);
  code.entry = count_table(counts);
  ((code.entry += "\n#ifdef SADSL_HAVE_SCALAR_PATH\n") += emit::scalar_dialect().signature()) += " {\n  ";
  (code.entry += code.space()) += "::sadsl_core(point, out, limits, sadsl_counts);\n}\n#endif\n";
  return code;
}

std::vector<evaluation_code> evaluation_codes(const std::vector<const design_model*>& models, unsigned threads) {
  std::vector<evaluation_code> out(models.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t m; (m = next++) < models.size();) {
      try {
        out[m] = evaluation_code_of(*models[m]);
      } catch (const error& e) {
        out[m].error = e.what();
      }
    }
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads && t < models.size(); ++t) {
    try {
      helpers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no more threads: this one makes the rest
    }
  }
  work();
  for (std::thread& t : helpers) t.join();
  return out;
}

std::vector<const evaluation_code*> addresses(const std::vector<evaluation_code>& codes) {
  std::vector<const evaluation_code*> out;
  for (const evaluation_code& code : codes) out.push_back(&code);
  return out;
}

std::string model_hash(const design_model& model) { return evaluation_code_of(model).hash(); }

namespace {

std::string registration(const std::string& hash) {
  return "\nextern \"C\" int sadsl_register_ahead_of_time_model(const void* abi);\n"
         "[[maybe_unused]] static const int sadsl_registered_" + hash +
         " = sadsl_register_ahead_of_time_model(sadsl_model_" + hash + "_abi());\n";
}

}  // namespace

emitted_model emit_model(const design_model& model, const emit_options& options) {
  return emit_model(model, evaluation_code_of(model), options);
}

emitted_model emit_model(const design_model& model, const evaluation_code& code, const emit_options& options) {
  std::string hash = code.hash();
  std::string source = "// Generated by sadsl from model \"" + escaped(model.name) + "\" (hash " + hash +
                       "). Do not edit.\n" + prelude() + core_namespace(code) + code.entry + exports(model, hash, code.space(), false);
  if (options.register_ahead_of_time) source += registration(hash);
  return {std::move(source), std::move(hash), code.core_hash};
}

emitted_models emit_models(const std::vector<const design_model*>& models, const emit_options& options) {
  std::vector<evaluation_code> codes;
  for (const design_model* model : models) codes.push_back(evaluation_code_of(*model));
  return emit_models(models, addresses(codes), options);
}

emitted_models emit_models(const std::vector<const design_model*>& models, const std::vector<const evaluation_code*>& codes,
                           const emit_options& options) {
  emitted_models out;
  out.source = prelude() + "\n}  // namespace\n";
  std::set<std::string> emitted, cores;
  for (std::size_t m = 0; m < models.size(); ++m) {
    const design_model* model = models[m];
    const evaluation_code& code = *codes[m];
    std::string hash = code.hash();
    out.hashes.push_back(hash);
    if (!emitted.insert(hash).second) continue;
    if (cores.insert(code.core_hash).second) out.source += core_namespace(code);
    out.source += "\n// model \"" + escaped(model->name) + "\"\nnamespace sadsl_model_" + hash + " {\n\n" + code.entry +
                  exports(*model, hash, code.space(), true);
    if (options.register_ahead_of_time) out.source += registration(hash);
    out.source += "\n}  // namespace sadsl_model_" + hash + "\n";
  }
  return out;
}

std::string emit_cpp(const design_model& model, const emit_options& options) { return emit_model(model, options).source; }

}  // namespace sadsl::model
