#pragma once
// What a command returns and throws, apart from CLI11 (a heavy header): the exit statuses, the
// usage error and the runner type, for the files that need no option declarations.
#include <functional>
#include <ostream>

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

}  // namespace sadsl::cli
