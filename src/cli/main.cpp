// The `sadsl` program: dispatches to the subcommands registered in src/cli/*_command.cpp.
#include <iostream>

#include "command.hpp"
#include "sadsl/error.hpp"

namespace {
void usage(std::ostream& out) {
  out << "usage: sadsl <command> [options]\n\ncommands:\n";
  for (const auto& [name, info] : sadsl::cli::commands()) out << "  " << name << "  " << info.summary << "\n";
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "help") {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  std::string name = argv[1];
  try {
    auto found = sadsl::cli::commands().find(name);
    if (found == sadsl::cli::commands().end()) throw sadsl::error("sadsl: unknown command \"" + name + "\"");
    sadsl::cli::arguments args(name, std::vector<std::string>(argv + 2, argv + argc), found->second.flags);
    return found->second.run(args, std::cout);
  } catch (const sadsl::error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
