#pragma once
// Errors. A user mistake throws sadsl::error, whose message names the user's objects and, when the
// mistake was made at a DSL call, the user's file:line. A broken invariant inside sadsl is a bug of
// ours: internal_assert throws sadsl::internal_error (never exit(), never abort()).
#include <source_location>
#include <stdexcept>
#include <string>

namespace sadsl {

/// A user mistake: bad kernel, bad option, bad input file. what() is the full message.
class error : public std::runtime_error {
public:
  explicit error(const std::string& message) : std::runtime_error(message) {}
  /// "file.cpp:12: message" — the location of the user's DSL call.
  error(const std::string& message, const std::source_location& where);
};

/// A bug in sadsl itself (an internal invariant failed).
class internal_error : public std::logic_error {
public:
  explicit internal_error(const std::string& message) : std::logic_error(message) {}
};

/// "file.cpp:12" with the directory stripped, as used in error messages.
std::string format_location(const std::source_location& where);

namespace detail {
[[noreturn]] void internal_failure(const char* condition, const char* file, int line, const std::string& message);
}  // namespace detail

}  // namespace sadsl

/// Checks an invariant of sadsl itself; on failure throws sadsl::internal_error.
#define SADSL_INTERNAL_ASSERT(cond, msg)                                                            \
  do {                                                                                              \
    if (!(cond)) ::sadsl::detail::internal_failure(#cond, __FILE__, __LINE__, (msg));              \
  } while (0)
