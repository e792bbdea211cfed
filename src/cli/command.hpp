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

#include "sadsl/error.hpp"

namespace sadsl::cli {

/// Exit statuses of `sadsl` (printed by `sadsl --help`, docs/reliability.md).
enum exit_status : int {
  exit_success = 0,       ///< the command did what was asked
  exit_user_error = 1,    ///< bad input (file, model, device, size), nothing feasible, output not written
  exit_usage = 2,         ///< the command line itself is wrong (unknown command or option, bad value)
  exit_internal = 70,     ///< a bug in sadsl (internal error)
  exit_signal_base = 128  ///< + the signal's number: stopped by SIGINT (130), SIGHUP (129) or SIGTERM (143), result written
};

/// A mistake in the command line (exit status 2), as opposed to one in the inputs it names.
class usage_error : public error {
public:
  using error::error;
};

/// What a command does once its options are parsed: writes its result to `out`, returns its exit status.
using command_runner = std::function<int(std::ostream& out)>;

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
