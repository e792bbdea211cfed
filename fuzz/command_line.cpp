// Fuzz target: the `sadsl` command line, parsed in-process (src/cli/command_line.hpp) without
// running the command (which would read and write the files it names). The input holds one word
// per line. Then every word goes through the value checkers the commands use (--size, --seed,
// --seconds), as a command would when it runs.
#include <sstream>
#include <vector>

#include "../src/cli/command_line.hpp"
#include "../src/cli/options.hpp"
#include "fuzz_support.hpp"

using namespace sadsl;

namespace {

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words{"sadsl"};
  std::istringstream lines(text);
  for (std::string line; words.size() < 64 && std::getline(lines, line);) words.push_back(line);
  return words;
}

void check_values(const std::string& value) {
  fuzz::refused([&] { cli::parse_assignments("eval", "size", value); });
  fuzz::refused([&] { cli::parse_whole("tune", "seed", value, UINT64_MAX); });
  fuzz::refused([&] { cli::parse_whole("tune", "threads", value, 1024); });
  fuzz::refused([&] { cli::parse_number("tune", "seconds", value, false); });
  fuzz::refused([&] { cli::parse_number("tune", "operations", value, true); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> words = words_of(fuzz::text_of(data, size));
  std::vector<const char*> argv;
  for (const std::string& word : words) argv.push_back(word.c_str());
  std::ostringstream out, err;
  cli::parsed_command parsed = cli::parse_command_line(static_cast<int>(argv.size()), argv.data(), out, err);
  if (parsed.status < 0) fuzz::fuzz_check(static_cast<bool>(parsed.runner), "a parsed command has a runner");
  else fuzz::fuzz_check(parsed.status == cli::exit_success || parsed.status == cli::exit_usage, "status 0 or 2");
  if (parsed.status == cli::exit_usage) fuzz::fuzz_check(!err.str().empty(), "a usage error says why");
  for (std::size_t i = 1; i < words.size(); ++i) check_values(words[i]);
  return 0;
}
