#pragma once
// How commands write their results: to standard output, or with --output FILE to a file that is
// replaced atomically (a temporary file in the same directory, renamed into place).
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace sadsl::cli {

/// Writes `text` to `file` (atomically) when it is not empty, else to `out`. Throws sadsl::error
/// "sadsl <command>: --output: cannot write <file>: <reason>".
void write_result(const std::string& command, const std::string& file, const std::string& text, std::ostream& out);

/// One "key value" line per member (strings unquoted), keys padded to 18 columns.
std::string text_lines(const nlohmann::ordered_json& object);

/// Whole numbers print without a fraction.
nlohmann::ordered_json integer_or_real(double value);

}  // namespace sadsl::cli
