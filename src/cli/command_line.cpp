#include "command_line.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "command.hpp"

namespace sadsl::cli {

const char* const exit_statuses_help =
    "exit status:\n"
    "  0    success\n"
    "  1    bad input (file, model, device, size), nothing feasible, or the result could not be written\n"
    "  2    bad command line (unknown command or option, missing or malformed value)\n"
    "  70   internal error (a bug in sadsl)\n"
    "  128+N  stopped by signal N (130 SIGINT, 129 SIGHUP, 143 SIGTERM); the result so far was written";

namespace {

void usage(std::ostream& out) {
  out << "usage: sadsl <command> [options]    (sadsl <command> --help for its options)\n\ncommands:\n";
  for (const auto& [name, info] : commands()) out << "  " << name << std::string(8 - std::min<std::size_t>(name.size(), 7), ' ') << info.summary << "\n";
  out << "\n" << exit_statuses_help << "\n";
}

// "--size" given twice would silently keep one of the values: refuse it.
void reject_repeats(const CLI::App& app, const std::string& command, const std::vector<std::string>& words) {
  std::set<std::string> seen;
  for (const std::string& word : words) {
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

// Parses the command's options into the state its runner keeps; a status >= 0 when done.
int parse_options(CLI::App& app, const std::string& command, std::vector<std::string> words, std::ostream& out,
                  std::ostream& err) {
  try {
    reject_repeats(app, command, words);
    std::reverse(words.begin(), words.end());  // CLI11 takes them last first
    app.parse(words);
    reject_extras(app, command);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return exit_success;
  } catch (const CLI::ParseError& e) {
    err << "sadsl " << command << ": " << e.what() << "\n";
    return exit_usage;
  } catch (const usage_error& e) {
    err << e.what() << "\n";
    return exit_usage;
  }
  return -1;
}

}  // namespace

parsed_command parse_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  parsed_command parsed;
  parsed.name = argc > 1 ? argv[1] : "";
  if (parsed.name == "--help" || parsed.name == "-h" || parsed.name == "help") {
    usage(out);
    parsed.status = exit_success;
    return parsed;
  }
  auto found = commands().find(parsed.name);
  if (found == commands().end()) {
    if (argc > 1) err << "sadsl: unknown command \"" << parsed.name << "\"\n\n";
    usage(err);
    parsed.status = exit_usage;
    return parsed;
  }
  parsed.is_command = true;
  CLI::App app{found->second.summary, "sadsl " + parsed.name};
  app.allow_extras();
  app.footer(exit_statuses_help);
  command_runner runner = found->second.define(app);
  parsed.status = parse_options(app, parsed.name, std::vector<std::string>(argv + 2, argv + argc), out, err);
  if (parsed.status < 0) parsed.runner = std::move(runner);
  return parsed;
}

}  // namespace sadsl::cli
