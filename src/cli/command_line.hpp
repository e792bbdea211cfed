#pragma once
// Reading the `sadsl` command line, apart from running it: a function that takes argv and writes
// help and usage errors to the streams it is given, so that tests and the fuzz target
// (fuzz/command_line.cpp) can call it in-process. It never exits.
#include <ostream>
#include <string>

#include "status.hpp"

namespace sadsl::cli {

/// The exit statuses as `sadsl --help` lists them.
extern const char* const exit_statuses_help;

/// A command line read: either done (help printed or a usage error reported; `status` >= 0) or
/// a command to run (`status` < 0 and `runner` set).
struct parsed_command {
  std::string name;  ///< the command ("eval"), or the first word when it names none
  bool is_command = false;  ///< `name` is a command
  int status = -1;
  command_runner runner;
};

/// Reads `argv` (argv[0] is the program). Help goes to `out`, usage errors to `err` with status 2
/// (exit_usage). Option values are checked later, by the runner.
parsed_command parse_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace sadsl::cli
