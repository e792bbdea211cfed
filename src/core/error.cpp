#include "sadsl/error.hpp"

#include <string_view>

namespace sadsl {

std::string format_location(const std::source_location& where) {
  std::string_view file = where.file_name();
  if (auto slash = file.find_last_of('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  return std::string(file) + ":" + std::to_string(where.line());
}

error::error(const std::string& message, const std::source_location& where)
    : std::runtime_error(format_location(where).append(": ").append(message)) {}

namespace detail {
void internal_failure(const char* condition, const char* file, int line, const std::string& message) {
  throw internal_error(std::string("sadsl internal error at ") + file + ":" + std::to_string(line) +
                       ": (" + condition + ") " + message);
}
}  // namespace detail

}  // namespace sadsl
