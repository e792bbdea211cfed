#pragma once
// Helpers shared by the model tests: reference-data paths and a small CSV reader.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sadsl::model::testing {

inline std::filesystem::path odyssey_dir() { return std::filesystem::path(SADSL_SHARED_DIR) / "reference" / "odyssey"; }

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
