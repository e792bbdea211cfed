#pragma once
// SIGINT (Ctrl-C), SIGTERM and SIGHUP stop a command instead of killing it: the handlers only
// set a flag, which the work in progress (searches, run-time compilation, listing a design
// space) polls; the command then writes what it has and exits with 128 + the signal's number.
// A second signal of the same kind kills the program at once.
#include <atomic>
#include <string>

namespace sadsl::cli {

/// Installs the handlers (once, at program start).
void install_signal_handlers();
/// Set when a handled signal arrived.
const std::atomic<bool>& stop_requested();
/// The first signal received, or 0.
int received_signal();
/// "SIGINT", "SIGTERM", "SIGHUP".
std::string signal_name(int signal);

}  // namespace sadsl::cli
