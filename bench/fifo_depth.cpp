// Partial sums between PEs and the depth of the FIFOs (docs/comm.md, "FIFO depths"): designs
// whose PEs pass partial sums along a space loop, timed with every FIFO 2 deep, with the depths
// the builder gives (size_fifos: the FIFOs into PEs behind along the chain deeper), and with FIFOs
// deep enough that no writer waits, beside the model's latency; then, from the deep run, the peak
// occupancy of the FIFOs into the PEs by the PE's place p along the reduction loop, beside the
// depths the builder gave them.
// Usage: bench_fifo_depth
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <sadsl/sadsl.hpp>
#include <sadsl/comm/timed_simulation.hpp>
#include <sadsl/model/interpreter.hpp>

namespace {

using namespace sadsl;

struct row {
  kernel k;
  std::map<std::string, int64_t> sizes;
  std::string design;
  factor_values point;
};

std::string point_text(const factor_values& point) {
  std::string out;
  for (const auto& [name, value] : point) out += (out.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return out;
}

void measure(row& r) {
  for (const auto& p : r.k.params())
    if (auto size = r.sizes.find(p.name()); size != r.sizes.end()) p.set(size->second);
  design d = [&] {
    for (const auto& candidate : designs(r.k))
      if (candidate.name() == r.design) return candidate;
    throw error("bench_fifo_depth: no design " + r.design);
  }();
  design_point point = point_by_name(d, r.point);
  architecture a = build_architecture(d, {point, {}});
  std::vector<partial_sum_chain> chains = partial_sum_chains(a);
  const int along = chains.empty() ? -1 : chains.front().dim;  // the first chain's space dim, -1: none
  timing_options o;
  o.fifo_peaks = true;
  auto run = [&](const architecture& arch) {
    buffers data(r.k);
    data.randomize_inputs(5);
    return simulate_timed(arch, data, o);
  };
  timed_result sized = run(a);
  architecture two_deep = a, deep_arch = a;
  for (auto& f : two_deep.fifos) f.depth = 2;
  for (auto& f : deep_arch.fifos) f.depth = 65536;
  timed_result shallow = run(two_deep);
  timed_result deep = run(deep_arch);
  int64_t deepened = 0, deepest = 0;
  for (const auto& f : a.fifos) {
    deepened += f.depth > 2;
    deepest = std::max(deepest, f.depth);
  }
  model::design_model m = performance_model(d);
  std::vector<double> values = model_point(m, point, r.k);
  double model_latency = model::interpreter(m).evaluate(values, {1e9, 1e9, 1e9}).latency;
  std::printf("\n%s `%s` at %s\n\n| FIFOs | cycles | model / cycles |\n|---|---:|---:|\n", r.k.name().c_str(), r.design.c_str(),
              point_text(r.point).c_str());
  auto line = [&](const char* what, const timed_result& t) {
    std::printf("| %s | %lld | %.3f |\n", what, static_cast<long long>(t.cycles), model_latency / static_cast<double>(t.cycles));
  };
  line("every FIFO 2 deep", shallow);
  line("sized (generated)", sized);
  line("deep (no writer waits)", deep);
  std::printf("\n2-deep FIFOs take %.2fx the deep run's cycles, the generated ones %.2fx (%lld FIFOs deeper than 2, up to %lld); "
              "the model says %.0f\n",
              static_cast<double>(shallow.cycles) / static_cast<double>(deep.cycles),
              static_cast<double>(sized.cycles) / static_cast<double>(deep.cycles), static_cast<long long>(deepened),
              static_cast<long long>(deepest), model_latency);
  if (along < 0) return;
  // Peak tokens of the FIFOs from input modules into the PEs, per module kind and PE place along
  // the reduction loop.
  std::map<std::string, std::map<int64_t, std::pair<int64_t, int64_t>>> peaks;  // peak, generated depth
  for (const auto& f : a.fifos) {
    const module_kind& consumer = a.modules[static_cast<size_t>(f.consumer_kind)];
    const module_kind& producer = a.modules[static_cast<size_t>(f.producer_kind)];
    if (consumer.role != module_role::pe || producer.role != module_role::io_in) continue;
    int64_t place = consumer.instances[static_cast<size_t>(f.consumer_instance)][static_cast<size_t>(along)];
    auto& [peak, depth] = peaks[producer.name][place];
    peak = std::max(peak, deep.fifo_peak.at(f.name));
    depth = std::max(depth, f.depth);
  }
  std::printf("\npeak tokens in the deep run of the FIFOs into the PEs (/ the generated depth), by the PE's place p along the "
              "reduction loop:\n\n");
  for (const auto& [producer, by_place] : peaks) {
    std::printf("- %s:", producer.c_str());
    for (const auto& [place, peak] : by_place)
      std::printf(" p=%lld %lld/%lld", static_cast<long long>(place), static_cast<long long>(peak.first),
                  static_cast<long long>(peak.second));
    std::printf("\n");
  }
}

}  // namespace

int main() {
  std::vector<row> rows = {
      {catalog::cnn(), {{"O", 8}, {"R", 12}, {"C", 12}, {"I", 16}}, "[r,i] <[o,r,c],i>",
       {{"o_t1", 4}, {"o_t2", 4}, {"r_t1", 6}, {"r_t2", 2}, {"c_t1", 6}, {"c_t2", 6}, {"i_t1", 8}, {"i_t2", 2}}},
      {catalog::ttmc(), {{"I", 8}, {"J", 8}, {"K", 8}, {"L", 8}, {"M", 8}}, "[k,l] <[i,j,k],l>",
       {{"i_t1", 4}, {"i_t2", 4}, {"j_t1", 4}, {"j_t2", 2}, {"k_t1", 4}, {"k_t2", 1}, {"l_t1", 4}, {"l_t2", 1}}},
      {catalog::mttkrp(), {{"I", 8}, {"J", 8}, {"K", 8}, {"L", 8}}, "[i,k] <[j],i,k>",
       {{"i_t1", 5}, {"i_t2", 5}, {"j_t1", 8}, {"j_t2", 4}, {"k_t1", 8}, {"k_t2", 2}}},
  };
  try {
    for (auto& r : rows) measure(r);
  } catch (const sadsl::error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
