#pragma once
// Shared by the tuner benchmarks: where the Odyssey reference data is, and its optima.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sadsl/tune/design_space.hpp"

namespace sadsl::tune::bench {

/// $SADSL_SHARED_DIR, else ../shared next to the source tree (the benchmark lives in <source>/build/bench).
inline std::filesystem::path reference_dir() {
  if (const char* dir = std::getenv("SADSL_SHARED_DIR")) return std::filesystem::path(dir) / "reference" / "odyssey";
  auto exe = std::filesystem::canonical("/proc/self/exe");
  return exe.parent_path().parent_path().parent_path().parent_path() / "shared" / "reference" / "odyssey";
}

struct optimum {
  double latency = 0;
  double divisor_only = 0;
};

/// optima.csv: design -> exact optimum and the optimum with every t1 | N.
inline std::map<std::string, optimum> optima() {
  std::ifstream in(reference_dir() / "gemm_1024" / "optima.csv");
  std::string line;
  std::getline(in, line);
  std::map<std::string, optimum> result;
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    std::vector<std::string> cell;
    std::string c;
    while (std::getline(cells, c, ',')) cell.push_back(c);
    result[cell[0]] = {std::stod(cell[5]), std::stod(cell[21])};
  }
  return result;
}

inline design_space mm_space(const std::string& design, space_options options = {}) {
  static std::map<std::string, std::shared_ptr<const model::evaluator>> evaluators;
  auto& ev = evaluators[design];
  if (!ev) ev = load_descriptor((reference_dir() / "descriptors" / "gemm" / (design + ".json")).string());
  return design_space(ev, {{"i", 1024}, {"j", 1024}, {"k", 1024}}, builtin_device("u250"), options);
}

}  // namespace sadsl::tune::bench
