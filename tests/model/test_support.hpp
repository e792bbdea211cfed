#pragma once
// Helpers shared by the model tests: reference-data paths and a small CSV reader.
#include "../support/test_support.hpp"
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sadsl::model::testing {

/// Reading it marks the test skipped in a checkout without ../shared.
inline std::filesystem::path odyssey_dir() { return sadsl::testing::shared_reference_dir() / "odyssey"; }

inline std::vector<std::string> gemm_designs() {
  std::vector<std::string> names;
  for (int dataflow = 0; dataflow < 6; ++dataflow)
    for (int order = 0; order < 3; ++order) names.push_back("kernel" + std::to_string(dataflow) + "_" + std::to_string(order));
  return names;
}

inline std::vector<std::string> cnn_designs() {
  std::vector<std::string> names;
  for (int dataflow = 0; dataflow < 10; ++dataflow)
    for (int order = 0; order < 3; ++order) names.push_back("kernel" + std::to_string(dataflow) + "_" + std::to_string(order));
  return names;
}

/// A CSV file with a header line: rows as column name -> text.
inline std::vector<std::map<std::string, std::string>> read_csv(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  auto split = [](const std::string& text) {
    std::vector<std::string> cells;
    std::stringstream stream(text);
    std::string cell;
    while (std::getline(stream, cell, ',')) cells.push_back(cell);
    return cells;
  };
  if (std::getline(in, line)) header = split(line);
  while (std::getline(in, line)) {
    auto cells = split(line);
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace sadsl::model::testing

#include <cstring>
#include <random>
#include <unistd.h>

#include "sadsl/error.hpp"
#include "sadsl/model/design_model.hpp"
#include "sadsl/model/odyssey.hpp"

namespace sadsl::model::testing {

/// The command-line arguments of kernel3_2's optimum at 1024^3 (the model and command-line tests).
inline const std::string optimum_arguments =
    "--size i=1024,j=1024,k=1024 --point i_t1=129,i_t2=3,j_t1=205,j_t2=41,k_t1=64,k_t2=8";

inline std::filesystem::path descriptor(const std::string& kernel, const std::string& design) {
  return odyssey_dir() / "descriptors" / kernel / (design + ".json");
}

/// A reference descriptor as JSON, to be broken by a test.
inline nlohmann::ordered_json descriptor_json(const std::string& kernel = "gemm", const std::string& design = "kernel3_2") {
  std::ifstream in(descriptor(kernel, design));
  return nlohmann::ordered_json::parse(in);
}

/// The message importing `d` (as "kernel3_2.json") gives, or "(no error)".
inline std::string import_error(const nlohmann::ordered_json& d, const odyssey_binding* binding = nullptr) {
  try {
    import_odyssey_descriptor(d, "kernel3_2.json", "kernel3_2", binding);
  } catch (const sadsl::error& e) {
    return e.what();
  }
  return "(no error)";
}

/// A model named `name` (source "test") whose parameters are problem sizes named `names`, in order:
/// a test then writes its metrics in terms of them.
inline design_model sized_model(const std::string& name, std::initializer_list<const char*> names) {
  design_model m;
  m.name = name;
  m.source = "test";
  for (const char* parameter_name : names) {
    parameter p;
    p.name = parameter_name;
    p.origin = problem_size_origin{};
    m.params.push_back(p);
  }
  return m;
}

/// A fresh, empty directory for run-time compiled models (removed by the destructor).
struct temporary_cache {
  std::filesystem::path dir;
  explicit temporary_cache(const std::string& tag)
      : dir(std::filesystem::temp_directory_path() / ("sadsl-test-" + tag + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~temporary_cache() { std::filesystem::remove_all(dir); }
};

/// The parameter that `index` tiles (the one whose split_by is `index`), if any.
inline const parameter* parent_of(const design_model& model, std::size_t index) {
  for (const parameter& p : model.params)
    if (p.split_by == index) return &p;
  return nullptr;
}

/// Random points over every parameter: problem sizes in [1, 512], each tile in [1, its parent];
/// half of the points snap inner tiles to divisors and SIMD factors to powers of two, so that
/// both legal and illegal points (with fractional intermediate values) are exercised.
inline std::vector<double> random_points(const design_model& model, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  auto uniform = [&](double hi) {
    return static_cast<double>(std::uniform_int_distribution<long>(1, std::max(1L, static_cast<long>(hi)))(random));
  };
  std::size_t width = model.params.size();
  std::vector<double> points(count * width);
  for (std::size_t n = 0; n < count; ++n) {
    double* p = &points[n * width];
    bool snap = n % 2 == 0;
    for (std::size_t i = 0; i < width; ++i) {
      const parameter& param = model.params[i];
      const parameter* parent = parent_of(model, i);
      double bound = parent ? p[&*parent - model.params.data()] : 512;
      if (param.role() == parameter_role::simd) bound = std::min(bound, 16.0);
      p[i] = param.inferred ? 0 : uniform(bound);
      if (snap && parent && param.role() != parameter_role::tile)
        while (std::fmod(bound, p[i]) != 0 || (param.power_of_two && (static_cast<long>(p[i]) & (static_cast<long>(p[i]) - 1))))
          p[i] -= 1;
    }
  }
  return points;
}

}  // namespace sadsl::model::testing
