#include "command.hpp"

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

CLI::Option* add_value(CLI::App& app, const std::string& name, std::string& value, const std::string& type,
                       const std::string& help) {
  CLI::Option* option = app.add_option("--" + name, value, help)->type_name(type);
  option->check(
      [](const std::string& text) -> std::string {
        if (text.rfind("--", 0) == 0) return "\"" + text + "\" is an option, not a value";
        return "";
      },
      "", "not an option");
  return option;
}

CLI::Option* add_flag(CLI::App& app, const std::string& name, bool& value, const std::string& help) {
  return app.add_flag("--" + name, value, help);
}

}  // namespace sadsl::cli
