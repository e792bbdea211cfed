#include "signals.hpp"

#include <csignal>

namespace sadsl::cli {

namespace {
std::atomic<bool> stop{false};
std::atomic<int> first_signal{0};

extern "C" void on_signal(int number) {
  int none = 0;
  if (!first_signal.compare_exchange_strong(none, number) && first_signal.load() == number) {
    std::signal(number, SIG_DFL);  // asked twice: the user means it
    std::raise(number);
  }
  stop.store(true);
}
}  // namespace

void install_signal_handlers() {
  for (int number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a blocking wait returns EINTR and sees the flag
    sigaction(number, &action, nullptr);
  }
}

const std::atomic<bool>& stop_requested() { return stop; }
int received_signal() { return first_signal.load(); }

std::string signal_name(int number) {
  switch (number) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "signal " + std::to_string(number);
  }
}

}  // namespace sadsl::cli
