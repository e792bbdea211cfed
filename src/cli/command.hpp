#pragma once
// Subcommands of the `sadsl` program. Each lives in its own file and registers itself with a
// static `command_registration`, so adding a command is adding a file. Options are declared
// with CLI11 (per-command --help, required options, flags); values are checked by the helpers
// in options.hpp, which give every message its exact text.
#include <functional>
#include <map>
#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

#include "status.hpp"

namespace sadsl::cli {

struct command_info {
  std::string summary;
  /// Declares the command's options on `app` (bound to state the runner keeps) and returns the runner.
  std::function<command_runner(CLI::App& app)> define;
};

/// Registers a subcommand at static-initialization time.
struct command_registration {
  command_registration(const std::string& name, command_info info);
};

/// All registered subcommands by name.
const std::map<std::string, command_info>& commands();

/// Adds `--name VALUE` (at most once; a value that is itself an option such as "--json" is
/// refused, so `--descriptor --json` cannot take the flag for a file name).
CLI::Option* add_value(CLI::App& app, const std::string& name, std::string& value, const std::string& type,
                       const std::string& help);
/// Adds the flag `--name` (at most once).
CLI::Option* add_flag(CLI::App& app, const std::string& name, bool& value, const std::string& help);

}  // namespace sadsl::cli
