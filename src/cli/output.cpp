#include "output.hpp"

#include <cmath>

#include "sadsl/error.hpp"
#include "sadsl/model/files.hpp"

namespace sadsl::cli {

void write_result(const std::string& command, const std::string& file, const std::string& text, std::ostream& out) {
  if (file.empty()) {
    out << text;
    return;
  }
  try {
    model::write_output_file(file, text);
  } catch (const error& e) {
    throw error("sadsl " + command + ": --output: " + e.what());
  }
}

std::string text_lines(const nlohmann::ordered_json& object) {
  std::string text;
  for (const auto& [key, value] : object.items()) {
    text += key + std::string(key.size() < 18 ? 18 - key.size() : 1, ' ');
    text += (value.is_string() ? value.get<std::string>() : value.dump()) + "\n";
  }
  return text;
}

nlohmann::ordered_json integer_or_real(double value) {
  if (value == std::floor(value) && std::fabs(value) < 9.0e15) return static_cast<long long>(value);
  return value;
}

}  // namespace sadsl::cli
