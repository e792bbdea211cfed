// kernel.h and kernel.cpp: helpers, module functions and the top function (interfaces, FIFOs,
// one call per module instance under DATAFLOW, ordered producers first).
#include <queue>

#include <fmt/format.h>

#include "c_values.hpp"
#include "generate.hpp"
#include "sadsl/error.hpp"

namespace sadsl::codegen_detail {

namespace {

// Helpers every generated project uses; guarded, so that several projects compile into one program.
const char* const helpers = R"(#ifndef SADSL_HLS_HELPERS
#define SADSL_HLS_HELPERS
static inline int sadsl_min(int a, int b) { return a < b ? a : b; }
static inline int sadsl_max(int a, int b) { return a > b ? a : b; }
static inline int sadsl_floord(int a, int b) {
  int q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
template <class T>
static inline T sadsl_vmin(T a, T b) { return b < a ? b : a; }
template <class T>
static inline T sadsl_vmax(T a, T b) { return a < b ? b : a; }
// Elements travel in packed words through their bit patterns.
static inline uint32_t sadsl_bits(float x) { union { float f; uint32_t u; } c; c.f = x; return c.u; }
static inline uint64_t sadsl_bits(double x) { union { double f; uint64_t u; } c; c.f = x; return c.u; }
static inline uint8_t sadsl_bits(int8_t x) { return (uint8_t)x; }
static inline uint8_t sadsl_bits(uint8_t x) { return x; }
static inline uint16_t sadsl_bits(int16_t x) { return (uint16_t)x; }
static inline uint16_t sadsl_bits(uint16_t x) { return x; }
static inline uint32_t sadsl_bits(int32_t x) { return (uint32_t)x; }
static inline uint32_t sadsl_bits(uint32_t x) { return x; }
static inline float sadsl_float_from_bits(uint64_t u) { union { float f; uint32_t u; } c; c.u = (uint32_t)u; return c.f; }
static inline double sadsl_double_from_bits(uint64_t u) { union { double f; uint64_t u; } c; c.u = u; return c.f; }
static inline int8_t sadsl_int8_t_from_bits(uint64_t u) { return (int8_t)(uint8_t)u; }
static inline uint8_t sadsl_uint8_t_from_bits(uint64_t u) { return (uint8_t)u; }
static inline int16_t sadsl_int16_t_from_bits(uint64_t u) { return (int16_t)(uint16_t)u; }
static inline uint16_t sadsl_uint16_t_from_bits(uint64_t u) { return (uint16_t)u; }
static inline int32_t sadsl_int32_t_from_bits(uint64_t u) { return (int32_t)(uint32_t)u; }
static inline uint32_t sadsl_uint32_t_from_bits(uint64_t u) { return (uint32_t)u; }
#ifdef SADSL_SIM
// C simulation with sadsl's headers: the top function runs its module calls as a dataflow
// region (sequential as in Vitis csim, or one thread per call), and keeps each run's result.
#include <sadsl_dataflow.h>
inline sadsl::sim::mode& sadsl_hls_mode() {
  static sadsl::sim::mode m = sadsl::sim::mode::sequential;
  return m;
}
inline std::vector<sadsl::sim::run_result>& sadsl_hls_runs() {
  static std::vector<sadsl::sim::run_result> runs;
  return runs;
}
#define SADSL_DATAFLOW_BEGIN sadsl::sim::dataflow sadsl_region;
// One closure per process, named by its line, that lives until the region runs.
#define SADSL_CONCAT2(a, b) a##b
#define SADSL_CONCAT(a, b) SADSL_CONCAT2(a, b)
#define SADSL_PROCESS(name, call)                                  \
  auto SADSL_CONCAT(sadsl_process_, __LINE__) = [&] { call; };     \
  sadsl_region.add(name, &sadsl::sim::invoke_process<decltype(SADSL_CONCAT(sadsl_process_, __LINE__))>, \
                   &SADSL_CONCAT(sadsl_process_, __LINE__))
#define SADSL_DATAFLOW_END sadsl_hls_runs().push_back(sadsl_region.run(sadsl_hls_mode()));
#else
#define SADSL_DATAFLOW_BEGIN
#define SADSL_PROCESS(name, call) call
#define SADSL_DATAFLOW_END
#endif
#endif  // SADSL_HLS_HELPERS
)";

std::string identifier(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "k_" + out;
  return out;
}

std::string open_namespace(const project_names& n) { return n.name_space.empty() ? "" : "namespace " + n.name_space + " {\n\n"; }
std::string close_namespace(const project_names& n) {
  return n.name_space.empty() ? "" : "\n}  // namespace " + n.name_space + "\n";
}

const fifo* fifo_at(const architecture& a, int kind, int instance, int port) {
  for (const auto& f : a.fifos)
    if ((f.producer_kind == kind && f.producer_instance == instance && f.producer_port == port) ||
        (f.consumer_kind == kind && f.consumer_instance == instance && f.consumer_port == port))
      return &f;
  return nullptr;
}

std::string module_call(const architecture& a, int kind, int instance, const project_names& n) {
  const module_kind& k = a.modules[static_cast<size_t>(kind)];
  std::vector<std::string> args;
  for (int64_t c : k.instances[static_cast<size_t>(instance)]) args.push_back(std::to_string(c));
  for (const auto& p : n.phase_params) args.push_back(p);
  if (k.dram) args.push_back(k.dram->tensor.name());
  for (size_t p = 0; p < k.ports.size(); ++p) {
    const fifo* f = fifo_at(a, kind, instance, static_cast<int>(p));
    if (!f)
      throw error(fmt::format("HLS code generation: port {} of {} is connected to no FIFO", k.ports[p].name,
                              instance_name(a, kind, instance)));
    args.push_back(f->name);
  }
  return fmt::format("{}({})", k.name, fmt::join(args, ", "));
}

}  // namespace

project_names names_of(const architecture& a, const hls_options& options) {
  project_names n;
  n.top = options.top.empty() ? identifier(a.design->band->source->kernel().name()) + "_top" : options.top;
  n.name_space = options.name_space;
  for (size_t j : a.phase_loops) n.phase_params.push_back(fmt::format("t{}", j));
  return n;
}

std::string top_parameters(const architecture& a, const project_names& n) {
  std::vector<std::string> ps;
  for (const auto& l : a.layouts) ps.push_back(fmt::format("{}* {}", c_type(l.element), l.tensor.name()));
  for (const auto& p : n.phase_params) ps.push_back("int " + p);
  return fmt::format("{}", fmt::join(ps, ", "));
}

std::string instance_name(const architecture& a, int kind, int instance) {
  const module_kind& k = a.modules[static_cast<size_t>(kind)];
  std::string s = k.name;
  for (int64_t c : k.instances[static_cast<size_t>(instance)]) s += fmt::format("_{}", c);
  return s;
}

std::vector<std::pair<int, int>> call_order(const architecture& a) {
  using inst = std::pair<int, int>;
  std::map<inst, int> waiting;  // unplaced producers per instance
  std::map<inst, std::vector<inst>> consumers;
  for (size_t k = 0; k < a.modules.size(); ++k)
    for (size_t i = 0; i < a.modules[k].instances.size(); ++i) waiting[{static_cast<int>(k), static_cast<int>(i)}] = 0;
  for (const auto& f : a.fifos) {
    ++waiting[{f.consumer_kind, f.consumer_instance}];
    consumers[{f.producer_kind, f.producer_instance}].push_back({f.consumer_kind, f.consumer_instance});
  }
  std::priority_queue<inst, std::vector<inst>, std::greater<inst>> ready;
  for (const auto& [i, w] : waiting)
    if (w == 0) ready.push(i);
  std::vector<inst> order;
  while (!ready.empty()) {
    inst i = ready.top();
    ready.pop();
    order.push_back(i);
    for (const auto& c : consumers[i])
      if (--waiting[c] == 0) ready.push(c);
  }
  if (order.size() != waiting.size()) {
    for (const auto& [i, w] : waiting)
      if (w > 0)
        throw error(fmt::format("HLS code generation: the FIFOs of design {} form a cycle through {}, so no order of "
                                "module calls works in sequential C simulation",
                                a.design->name(), instance_name(a, i.first, i.second)));
  }
  return order;
}

std::string kernel_header(const architecture& a, const project_names& n) {
  std::string guard = "SADSL_KERNEL_H_" + identifier(n.name_space.empty() ? n.top : n.name_space + "_" + n.top);
  std::string out = fmt::format("// Generated by sadsl from design {} of kernel \"{}\". Do not edit.\n", a.design->name(),
                                a.design->band->source->kernel().name());
  out += fmt::format("#ifndef {0}\n#define {0}\n\n#include <stdint.h>\n\n#include <ap_int.h>\n#include <hls_stream.h>\n\n",
                     guard);
  out += helpers;
  out += '\n';
  out += open_namespace(n);
  out += fmt::format("void {}({});\n", n.top, top_parameters(a, n));
  out += close_namespace(n);
  return out + fmt::format("\n#endif  // {}\n", guard);
}

std::string kernel_source(const architecture& a, const project_names& n) {
  c_writer out;
  write_modules(a, out);
  out.open(fmt::format("void {}({})", n.top, top_parameters(a, n)));
  for (const auto& l : a.layouts) {
    int64_t size = 1;
    for (int64_t e : l.extents) size *= e;
    out.line(fmt::format("#pragma HLS INTERFACE m_axi port={0} offset=slave bundle=gmem_{0} depth={1}", l.tensor.name(), size));
    out.line(fmt::format("#pragma HLS INTERFACE s_axilite port={} bundle=control", l.tensor.name()));
  }
  for (const auto& p : n.phase_params) out.line(fmt::format("#pragma HLS INTERFACE s_axilite port={} bundle=control", p));
  out.line("#pragma HLS INTERFACE s_axilite port=return bundle=control");
  out.line("#pragma HLS DATAFLOW");
  for (const auto& f : a.fifos) {
    out.line(fmt::format("hls::stream<{}, {}> {}(\"{}\");", token_type(f.element, f.lanes), f.depth, f.name, f.name));
    out.line(fmt::format("#pragma HLS STREAM variable={} depth={}", f.name, f.depth));
  }
  out.line("SADSL_DATAFLOW_BEGIN");
  for (const auto& [kind, instance] : call_order(a))
    out.line(fmt::format("SADSL_PROCESS(\"{}\", {});", instance_name(a, kind, instance), module_call(a, kind, instance, n)));
  out.line("SADSL_DATAFLOW_END");
  out.close();
  return fmt::format("// Generated by sadsl from design {}. Do not edit.\n#include \"kernel.h\"\n\n", a.design->name()) +
         open_namespace(n) + out.text() + close_namespace(n);
}

}  // namespace sadsl::codegen_detail
