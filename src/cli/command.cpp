#include "command.hpp"

#include <algorithm>

#include "sadsl/error.hpp"

namespace sadsl::cli {

namespace {
std::map<std::string, command_info>& registry() {
  static std::map<std::string, command_info> instance;
  return instance;
}
}  // namespace

command_registration::command_registration(const std::string& name, command_info info) {
  registry().emplace(name, std::move(info));
}

const std::map<std::string, command_info>& commands() { return registry(); }

arguments::arguments(const std::string& command, const std::vector<std::string>& argv,
                     const std::vector<std::string>& flags)
    : command_(command) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (!word.starts_with("--")) throw error("sadsl " + command + ": unexpected argument \"" + word + "\"");
    std::string name = word.substr(2);
    if (auto eq = name.find('='); eq != std::string::npos) {
      values_[name.substr(0, eq)] = name.substr(eq + 1);
      continue;
    }
    bool is_flag = std::find(flags.begin(), flags.end(), name) != flags.end();
    if (is_flag) {
      values_[name] = "";
      continue;
    }
    if (i + 1 >= argv.size()) throw error("sadsl " + command + ": option --" + name + " needs a value");
    values_[name] = argv[++i];
  }
}

const std::string& arguments::required(const std::string& name, const std::string& what) const {
  auto found = values_.find(name);
  if (found == values_.end()) throw error("sadsl " + command_ + ": missing --" + name + " " + what);
  return found->second;
}

const std::string* arguments::optional(const std::string& name) const {
  auto found = values_.find(name);
  return found == values_.end() ? nullptr : &found->second;
}

bool arguments::flag(const std::string& name) const { return values_.count(name) != 0; }

void arguments::allow_only(const std::vector<std::string>& known) const {
  for (const auto& [name, value] : values_)
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw error("sadsl " + command_ + ": unknown option --" + name);
}

}  // namespace sadsl::cli
