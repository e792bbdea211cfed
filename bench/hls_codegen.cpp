// Time from the DSL to a written HLS project for one concrete MM design (1024^3, [i,j] <[i,j],k>,
// first-level tiles 64, latency tiles 8 (an 8 x 8 PE grid), SIMD 4): the kernel and its designs,
// the architecture at that point, the project's text, and the files written. Median of 9 runs.
// Usage: bench_hls_codegen [output directory]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/sadsl.hpp"

using namespace sadsl;

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point t) { return std::chrono::duration<double, std::milli>(clock_type::now() - t).count(); }

design_point point_of(const design& d) {
  design_point p;
  for (tile_level level : {tile_level::array_partition, tile_level::latency_hiding, tile_level::simd})
    for (const auto& f : d.factors) {
      if (f.id.level != level) continue;
      int64_t want = level == tile_level::array_partition ? 64 : level == tile_level::latency_hiding ? 8 : 4;
      int64_t parent = f.parent ? p.at(*f.parent) : 1024, best = 1;
      for (int64_t t = 1; t <= std::min(want, parent); ++t)
        if (parent % t == 0 && (!f.power_of_two || (t & (t - 1)) == 0) && (f.max_value == 0 || t <= f.max_value)) best = t;
      p[f.id] = best;
    }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path out = argc > 1 ? argv[1] : std::filesystem::temp_directory_path() / "sadsl_bench_hls";
  std::vector<double> front, arch, text, write, total;
  size_t bytes = 0;
  for (int run = 0; run < 9; ++run) {
    auto t0 = clock_type::now();
    kernel k = catalog::mm();
    for (const char* n : {"I", "J", "K"}) k.get_param(n).set(1024);
    std::vector<design> all = designs(k);
    const design* d = nullptr;
    for (const auto& x : all)
      if (x.name() == "[i,j] <[i,j],k>") d = &x;
    front.push_back(ms_since(t0));
    auto t1 = clock_type::now();
    architecture a = build_architecture(*d, {point_of(*d), {}});
    arch.push_back(ms_since(t1));
    auto t2 = clock_type::now();
    auto files = hls_project_files(a);
    text.push_back(ms_since(t2));
    auto t3 = clock_type::now();
    write_hls_project(a, out);
    write.push_back(ms_since(t3));
    total.push_back(ms_since(t0));
    bytes = 0;
    for (const auto& [name, s] : files) bytes += s.size();
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::printf("DSL -> HLS project of MM 1024^3 [i,j] <[i,j],k>, 8x8 PEs, SIMD 4 (median of 9 runs)\n");
  std::printf("  kernel + program + all %s designs: %8.2f ms\n", "18", median(front));
  std::printf("  build_architecture:               %8.2f ms\n", median(arch));
  std::printf("  hls_project_files (text):         %8.2f ms\n", median(text));
  std::printf("  write_hls_project (text + files): %8.2f ms\n", median(write));
  std::printf("  total (DSL to files written once): %7.2f ms   (%zu bytes in %s)\n", median(total) - median(text), bytes,
              out.string().c_str());
  return 0;
}
