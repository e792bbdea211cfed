// The `sadsl` program: dispatches to the subcommands registered in src/cli/*_command.cpp. No input
// makes it crash: every failure ends in one message on stderr and a documented exit status.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <algorithm>
#include <new>
#include <set>

#include "command.hpp"
#include "signals.hpp"

namespace {

using namespace sadsl::cli;

const char* const exit_statuses =
    "exit status:\n"
    "  0    success\n"
    "  1    bad input (file, model, device, size), nothing feasible, or the result could not be written\n"
    "  2    bad command line (unknown command or option, missing or malformed value)\n"
    "  70   internal error (a bug in sadsl)\n"
    "  128+N  stopped by signal N (130 SIGINT, 129 SIGHUP, 143 SIGTERM); the result so far was written";

void usage(std::ostream& out) {
  out << "usage: sadsl <command> [options]    (sadsl <command> --help for its options)\n\ncommands:\n";
  for (const auto& [name, info] : commands()) out << "  " << name << std::string(8 - std::min<std::size_t>(name.size(), 7), ' ') << info.summary << "\n";
  out << "\n" << exit_statuses << "\n";
}

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

// "--size" given twice would silently keep one of the values: refuse it.
void reject_repeats(const CLI::App& app, const std::string& command, int argc, char** argv) {
  std::set<std::string> seen;
  for (int i = 2; i < argc; ++i) {
    std::string word = argv[i];
    if (!word.starts_with("--")) continue;
    std::string name = word.substr(0, word.find('='));
    if (app.get_option_no_throw(name) && !seen.insert(name).second)
      throw usage_error("sadsl " + command + ": option " + name + " is given twice");
  }
}

// Arguments CLI11 did not recognise, in order: the first unknown option or stray word.
void reject_extras(const CLI::App& app, const std::string& command) {
  for (const std::string& word : app.remaining()) {
    if (word.starts_with("-")) throw usage_error("sadsl " + command + ": unknown option " + word.substr(0, word.find('=')));
    throw usage_error("sadsl " + command + ": unexpected argument \"" + word + "\"");
  }
}

int parse(CLI::App& app, const std::string& command, int argc, char** argv) {
  try {
    reject_repeats(app, command, argc, argv);
    std::vector<std::string> words(argv + 2, argv + argc);
    std::reverse(words.begin(), words.end());  // CLI11 takes them last first
    app.parse(words);
    reject_extras(app, command);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return exit_success;
  } catch (const CLI::ParseError& e) {
    std::cerr << "sadsl " << command << ": " << e.what() << "\n";
    return exit_usage;
  } catch (const usage_error& e) {
    std::cerr << e.what() << "\n";
    return exit_usage;
  }
  return -1;
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
  std::string name = argc > 1 ? argv[1] : "";
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return check_stdout("--help", exit_success);
  }
  auto found = commands().find(name);
  if (found == commands().end()) {
    if (argc > 1) std::cerr << "sadsl: unknown command \"" << name << "\"\n\n";
    usage(std::cerr);
    return exit_usage;
  }
  CLI::App app{found->second.summary, "sadsl " + name};
  app.allow_extras();
  app.footer(exit_statuses);
  command_runner runner = found->second.define(app);
  if (int status = parse(app, name, argc, argv); status >= 0) return check_stdout(name, status);
  int status = run(name, runner);
  // Work cut short by a signal (e.g. a compilation it stopped) says so in its status.
  if (received_signal() && status != exit_success) status = exit_signal_base + received_signal();
  return check_stdout(name, status);
}
