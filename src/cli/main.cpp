// The `sadsl` program: dispatches to the subcommands registered in src/cli/*_command.cpp. No input
// makes it crash: every failure ends in one message on stderr and a documented exit status.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>

#include "command_line.hpp"
#include "signals.hpp"

namespace {

using namespace sadsl::cli;

// A closed standard descriptor would be reused by the next file opened (a compiler log, an
// output file) and receive what was meant for it: park /dev/null there and remember.
bool stdout_was_closed = false;
void guard_standard_descriptors() {
  for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    if (fd == STDOUT_FILENO) stdout_was_closed = true;
    int null = ::open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
    if (null >= 0 && null != fd) {
      ::dup2(null, fd);
      ::close(null);
    }
  }
}

// Output that could not be written (a full disk, a closed descriptor) is a failure, not success.
int check_stdout(const std::string& command, int status) {
  std::cout.flush();
  bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  int code = errno;
  if (stdout_was_closed) failed = true, code = EBADF;
  if (!failed || status != exit_success) return status;
  std::cerr << "sadsl " << command << ": cannot write standard output: " << std::strerror(code) << "\n";
  return exit_user_error;
}

int run(const std::string& command, const command_runner& runner) {
  try {
    return runner(std::cout);
  } catch (const usage_error& e) {
    std::cerr << e.what() << "\n";
    return exit_usage;
  } catch (const sadsl::error& e) {
    std::cerr << e.what() << "\n";
    return exit_user_error;
  } catch (const std::bad_alloc&) {
    std::cerr << "sadsl " << command << ": out of memory\n";
    return exit_user_error;
  } catch (const std::exception& e) {
    std::cerr << "sadsl " << command << ": internal error: " << e.what() << "\n";
    return exit_internal;
  }
}

}  // namespace

int main(int argc, char** argv) {
  guard_standard_descriptors();
  install_signal_handlers();
  parsed_command parsed = parse_command_line(argc, argv, std::cout, std::cerr);
  if (parsed.status >= 0) return check_stdout(parsed.is_command ? parsed.name : "--help", parsed.status);
  int status = run(parsed.name, parsed.runner);
  // Work cut short by a signal (e.g. a compilation it stopped) says so in its status.
  if (received_signal() && status != exit_success) status = exit_signal_base + received_signal();
  return check_stdout(parsed.name, status);
}
