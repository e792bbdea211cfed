// sadsl's compiler-built performance models beside Odyssey's, MM 1024^3 fp32: for each of the
// 18 designs, the Odyssey descriptor of the same dataflow and tile order (odyssey_models), and the
// values Odyssey's own generated model functions gave at 350 points each
// (../shared/reference/odyssey/gemm_1024/kernelX_Y.csv, README there). At every row: sadsl's
// model at the row's tiling factors (sadsl infers its own packing, so p9..p12 are ignored) and,
// as a check of the plumbing, sadsl's import of the Odyssey descriptor (which must reproduce the
// CSV). Prints the ratio sadsl / Odyssey per metric, the representative rows (median and extreme
// latency ratio) with each side's slowest module, and a referee section: the timed simulation of
// the architecture beside both models at small sizes.
//
// Usage: bench_odyssey_compare                      everything
//        bench_odyssey_compare N i_t1 j_t1 k_t1 i_t2 j_t2 k_t2   referee only, every design, at N^3
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <sadsl/comm/timed_simulation.hpp>
#include <sadsl/model/interpreter.hpp>
#include <sadsl/sadsl.hpp>

namespace {

using namespace sadsl;
namespace fs = std::filesystem;

const char* const factor_names[] = {"i_t1", "j_t1", "k_t1", "i_t2", "j_t2", "k_t2"};

struct csv_row {
  std::map<std::string, double> v;
  std::string sample_set;
};

std::vector<csv_row> read_csv(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw error("cannot read " + file.string());
  std::string line;
  std::getline(in, line);
  auto chomp = [](std::string& l) {
    while (!l.empty() && (l.back() == '\r' || l.back() == '\n')) l.pop_back();
  };
  chomp(line);
  std::vector<std::string> header;
  {
    std::stringstream s(line);
    for (std::string c; std::getline(s, c, ',');) header.push_back(c);
  }
  std::vector<csv_row> rows;
  while (std::getline(in, line)) {
    chomp(line);
    if (line.empty()) continue;
    std::stringstream s(line);
    csv_row r;
    size_t n = 0;
    for (std::string c; std::getline(s, c, ','); ++n) {
      if (header.at(n) == "sample_set")
        r.sample_set = c;
      else if (!c.empty())  // e.g. p12 of the designs that have none
        r.v[header.at(n)] = std::stod(c);
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

// The metrics compared, by their CSV column.
struct metric_def {
  const char* column;
  const char* label;
  double model::metrics::*field;
};
const metric_def metric_defs[] = {
    {"latency", "latency", &model::metrics::latency},
    {"latency_prologue", "prologue", &model::metrics::latency_prologue},
    {"latency_main", "main", &model::metrics::latency_main},
    {"latency_epilogue", "epilogue", &model::metrics::latency_epilogue},
    {"DSP", "DSP", &model::metrics::dsp},
    {"BRAM18K", "BRAM18K", &model::metrics::bram18k},
    {"off_chip_bytes", "off-chip B", &model::metrics::offchip_bytes},
};
constexpr size_t metric_count = std::size(metric_defs);

double ratio(double ours, double theirs) {
  if (ours == theirs) return 1;
  if (theirs == 0) return INFINITY;
  return ours / theirs;
}

std::string ratio_cell(std::vector<double> r) {
  if (r.empty()) return "-";
  std::sort(r.begin(), r.end());
  size_t within = 0;
  for (double x : r) within += std::fabs(x - 1) <= 0.01;
  double med = r.size() % 2 ? r[r.size() / 2] : (r[r.size() / 2 - 1] + r[r.size() / 2]) / 2;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.3g (%.3g-%.3g) %zu", med, r.front(), r.back(), within);
  return buf;
}

// The module with the largest main-phase latency at `values` (inferred parameters filled in).
std::string slowest_module(const model::design_model& m, const std::vector<double>& values) {
  std::string best;
  double most = -1;
  for (const auto& mod : m.modules) {
    double c = model::evaluate(model::cost(mod.main), values);
    if (c > most) {
      most = c;
      best = mod.name;
    }
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, " %.0f", most);
  return best + buf;
}

// The values of the imported (Odyssey) model's parameters: problem sizes and factors by name.
std::vector<double> their_values(const model::design_model& m, const std::map<std::string, double>& by_name) {
  std::vector<double> out;
  for (const auto& p : m.params) {
    auto it = by_name.find(p.name);
    out.push_back(it == by_name.end() ? 0 : it->second);
  }
  return out;
}

// Odyssey's descriptor name ("kernel3_2") from the imported model's source.
std::string kernel_name(const model::design_model& m) {
  auto slash = m.source.rfind('/');
  auto dot = m.source.rfind(".json");
  return m.source.substr(slash + 1, dot - slash - 1);
}

struct pairing {
  design d;
  model::design_model ours, theirs;
  std::string kernel;
};

std::vector<pairing> pair_designs(const kernel& k, const fs::path& descriptors) {
  model_source imported = odyssey_models(descriptors);
  std::vector<pairing> out;
  for (const auto& d : designs(k)) {
    std::optional<model::design_model> theirs = imported(d);
    if (!theirs) {
      std::printf("%s: no Odyssey descriptor\n", d.name().c_str());
      continue;
    }
    std::string name = kernel_name(*theirs);
    out.push_back({d, performance_model(d), std::move(*theirs), name});
  }
  return out;
}

factor_values point_of(const design& d, const std::map<std::string, double>& v) {
  factor_values fv;
  for (const char* n : factor_names)
    if (d.factor(std::string(n))) fv[n] = static_cast<int64_t>(v.at(n));
  return fv;
}

void compare_1024(const fs::path& shared) {
  kernel mm = catalog::mm();
  model::device_limits limits = tune::builtin_device("u250").limits();
  std::vector<pairing> pairs = pair_designs(mm, shared / "descriptors/gemm");
  std::printf("\n## sadsl / Odyssey at the CSV rows, MM 1024^3\n\n");
  std::printf("Each metric cell: median ratio sadsl/Odyssey (min-max) rows within 1%%.\n\n");
  std::printf("| design | Odyssey | rows | skipped | import = CSV |");
  for (const auto& md : metric_defs) std::printf(" %s |", md.label);
  std::printf("\n|---|---|---|---|---|");
  for (size_t i = 0; i < metric_count; ++i) std::printf("---|");
  std::printf("\n");
  std::string details;
  for (auto& p : pairs) {
    std::vector<csv_row> rows = read_csv(shared / "gemm_1024" / (p.kernel + ".csv"));
    model::interpreter ours(p.ours), theirs(p.theirs);
    std::vector<std::vector<double>> ratios(metric_count);
    size_t compared = 0, skipped = 0, import_ok = 0;
    struct kept {
      double r;
      const csv_row* row;
      std::vector<double> ours_v, theirs_v;
      model::metrics ours_m, theirs_m;
    };
    std::vector<kept> all;
    std::string skip_reason;
    for (const auto& row : rows) {
      // The import, at Odyssey's own names (its packing inferred again, as Odyssey does).
      std::vector<double> tv = their_values(p.theirs, row.v);
      model::metrics tm = theirs.evaluate(tv, limits);
      bool same = tm.legal == 1;
      for (const auto& md : metric_defs) same = same && std::fabs(tm.*md.field - row.v.at(md.column)) <= 1e-9 * std::max(1.0, std::fabs(row.v.at(md.column)));
      import_ok += same;
      std::vector<double> ov;
      model::metrics om;
      try {
        design_point pt = point_by_name(p.d, point_of(p.d, row.v));
        ov = model_point(p.ours, pt, mm);
        om = ours.evaluate(ov, limits);
      } catch (const error& e) {
        ++skipped;
        if (skip_reason.empty()) skip_reason = e.what();
        continue;
      }
      if (om.legal != 1) {
        ++skipped;
        if (skip_reason.empty()) skip_reason = "illegal for sadsl's model";
        continue;
      }
      ++compared;
      for (size_t i = 0; i < metric_count; ++i) {
        double r = ratio(om.*metric_defs[i].field, row.v.at(metric_defs[i].column));
        if (std::isfinite(r)) ratios[i].push_back(r);
      }
      all.push_back({ratio(om.latency, row.v.at("latency")), &row, ov, tv, om, tm});
    }
    std::printf("| %s | %s | %zu | %zu | %zu/%zu |", p.d.name().c_str(), p.kernel.c_str(), compared, skipped, import_ok,
                rows.size());
    for (size_t i = 0; i < metric_count; ++i) std::printf(" %s |", ratio_cell(ratios[i]).c_str());
    std::printf("\n");
    // Representative rows: the smallest, the median and the largest latency ratio.
    std::sort(all.begin(), all.end(), [](const kept& a, const kept& b) { return a.r < b.r; });
    char buf[1024];
    std::snprintf(buf, sizeof buf, "\n### %s (%s)%s%s\n\n", p.d.name().c_str(), p.kernel.c_str(),
                  skip_reason.empty() ? "" : "\nfirst skip: ", skip_reason.c_str());
    details += buf;
    if (all.empty()) continue;
    details += "| which | i_t1 j_t1 k_t1 / i_t2 j_t2 k_t2 | ratio | sadsl lat (pro+main+epi) | sadsl slowest | Odyssey lat (pro+main+epi) | Odyssey slowest | BRAM s/O | off-chip MB s/O |\n|---|---|---|---|---|---|---|---|---|\n";
    for (auto [label, idx] : {std::pair<const char*, size_t>{"min", 0}, {"median", all.size() / 2}, {"max", all.size() - 1}}) {
      const kept& k = all[idx];
      const auto& v = k.row->v;
      std::snprintf(buf, sizeof buf,
                    "| %s | %.0f %.0f %.0f / %.0f %.0f %.0f | %.3f | %.0f (%.0f+%.0f+%.0f) | %s | %.0f (%.0f+%.0f+%.0f) | %s | %.0f/%.0f | %.1f/%.1f |\n",
                    label, v.at("i_t1"), v.at("j_t1"), v.at("k_t1"), v.at("i_t2"), v.at("j_t2"), v.at("k_t2"), k.r,
                    k.ours_m.latency, k.ours_m.latency_prologue, k.ours_m.latency_main, k.ours_m.latency_epilogue,
                    slowest_module(p.ours, k.ours_v).c_str(), k.theirs_m.latency, k.theirs_m.latency_prologue,
                    k.theirs_m.latency_main, k.theirs_m.latency_epilogue, slowest_module(p.theirs, k.theirs_v).c_str(),
                    k.ours_m.bram18k, k.theirs_m.bram18k, k.ours_m.offchip_bytes / 1e6, k.theirs_m.offchip_bytes / 1e6);
      details += buf;
    }
  }
  std::printf("\n## Representative rows (smallest, median, largest latency ratio)\n%s", details.c_str());
}

// The timed simulation beside both models at N^3 and one point (every design that has it).
void referee(const fs::path& shared, int64_t n, const std::map<std::string, double>& factors) {
  kernel mm = catalog::mm();
  for (const char* p : {"I", "J", "K"}) mm.get_param(p).set(n);
  model::device_limits limits = tune::builtin_device("u250").limits();
  std::vector<pairing> pairs = pair_designs(mm, shared / "descriptors/gemm");
  std::map<std::string, double> named = factors;
  named["i"] = named["j"] = named["k"] = static_cast<double>(n);
  std::printf("\n### MM %lld^3, i_t1 j_t1 k_t1 / i_t2 j_t2 k_t2 = %.0f %.0f %.0f / %.0f %.0f %.0f\n\n",
              static_cast<long long>(n), factors.at("i_t1"), factors.at("j_t1"), factors.at("k_t1"), factors.at("i_t2"),
              factors.at("j_t2"), factors.at("k_t2"));
  std::printf("| design | Odyssey | timed sim | sadsl model | sadsl/sim | Odyssey model | Odyssey/sim | sim slowest kind | sadsl slowest | Odyssey slowest |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (auto& p : pairs) {
    std::string theirs_cell = "illegal", theirs_ratio = "-", theirs_slow = "-";
    std::vector<double> tv = their_values(p.theirs, named);
    model::metrics tm = model::interpreter(p.theirs).evaluate(tv, limits);
    try {
      design_point pt = point_by_name(p.d, point_of(p.d, factors));
      std::vector<double> ov = model_point(p.ours, pt, mm);
      model::metrics om = model::interpreter(p.ours).evaluate(ov, limits);
      architecture a = build_architecture(p.d, {pt, {}, false});
      buffers data(mm);
      data.randomize_inputs(1);
      timed_result t = simulate_timed(a, data, timing_options{});
      if (!t.deadlock.empty()) throw error("deadlock: " + t.deadlock);
      std::string slow;
      int64_t most = -1;
      for (const auto& [kind, c] : t.kind_finish)
        if (c > most) most = c, slow = kind;
      if (tm.legal == 1) {
        char b[64];
        std::snprintf(b, sizeof b, "%.0f", tm.latency);
        theirs_cell = b;
        std::snprintf(b, sizeof b, "%.3f", tm.latency / static_cast<double>(t.cycles));
        theirs_ratio = b;
        theirs_slow = slowest_module(p.theirs, tv);
      }
      std::printf("| %s | %s | %lld | %.0f%s | %.3f | %s | %s | %s %lld | %s | %s |\n", p.d.name().c_str(), p.kernel.c_str(),
                  static_cast<long long>(t.cycles), om.latency, om.legal == 1 ? "" : " (illegal)",
                  om.latency / static_cast<double>(t.cycles), theirs_cell.c_str(), theirs_ratio.c_str(), slow.c_str(),
                  static_cast<long long>(most), slowest_module(p.ours, ov).c_str(), theirs_slow.c_str());
    } catch (const error& e) {
      std::string why = e.what();
      if (why.size() > 90) why = why.substr(0, 90) + "...";
      std::printf("| %s | %s | skipped: %s | | | | | | | |\n", p.d.name().c_str(), p.kernel.c_str(), why.c_str());
    }
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  fs::path shared = SADSL_SHARED_DIR "/reference/odyssey";
  if (!fs::is_directory(shared / "gemm_1024") || !fs::is_directory(shared / "descriptors/gemm")) {
    std::printf("(no %s: nothing to compare)\n", shared.c_str());
    return 0;
  }
  try {
    if (argc == 8) {
      std::map<std::string, double> f;
      for (int i = 0; i < 6; ++i) f[factor_names[i]] = std::stod(argv[2 + i]);
      referee(shared, std::stoll(argv[1]), f);
      return 0;
    }
    auto t0 = std::chrono::steady_clock::now();
    compare_1024(shared);
    std::printf("\n(%.1f s)\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::printf("\n## Referee: the timed simulation beside both models\n");
    referee(shared, 64, {{"i_t1", 16}, {"j_t1", 16}, {"k_t1", 16}, {"i_t2", 8}, {"j_t2", 8}, {"k_t2", 4}});
    referee(shared, 64, {{"i_t1", 24}, {"j_t1", 20}, {"k_t1", 16}, {"i_t2", 8}, {"j_t2", 5}, {"k_t2", 4}});
  } catch (const error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
