#pragma once
// Subcommands of the `sadsl` program. Each lives in its own file and registers itself with a
// static `command_registration`, so adding a command is adding a file.
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace sadsl::cli {

/// Options of one subcommand invocation: "--name value" pairs and bare "--flag"s.
class arguments {
public:
  /// Parses argv after the subcommand name. `flags` are the options that take no value.
  arguments(const std::string& command, const std::vector<std::string>& argv, const std::vector<std::string>& flags);
  /// The value of --name; throws sadsl::error("sadsl <command>: missing --name <what>").
  const std::string& required(const std::string& name, const std::string& what) const;
  const std::string* optional(const std::string& name) const;
  bool flag(const std::string& name) const;
  /// Throws sadsl::error for an option the command does not know.
  void allow_only(const std::vector<std::string>& known) const;
  const std::string& command() const { return command_; }

private:
  std::string command_;
  std::map<std::string, std::string> values_;
};

using command_function = int (*)(const arguments& args, std::ostream& out);

struct command_info {
  std::string summary;
  std::vector<std::string> flags;  ///< options without a value
  command_function run;
};

/// Registers a subcommand at static-initialization time.
struct command_registration {
  command_registration(const std::string& name, command_info info);
};

/// All registered subcommands by name.
const std::map<std::string, command_info>& commands();

}  // namespace sadsl::cli
