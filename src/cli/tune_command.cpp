// sadsl tune: searches a descriptor's design space (or every descriptor of a folder: all
// dataflows x permutations) and prints the tuned configuration. Ctrl-C stops the search and the
// best point so far is still printed.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "command.hpp"
#include "point_options.hpp"
#include "sadsl/error.hpp"
#include "sadsl/tune/tune.hpp"

namespace sadsl::cli {
namespace {

std::atomic<bool> interrupted{false};
extern "C" void on_interrupt(int) { interrupted.store(true); }

// Installs the Ctrl-C handler for the duration of a search.
class interrupt_scope {
public:
  interrupt_scope() { previous_ = std::signal(SIGINT, on_interrupt); }
  ~interrupt_scope() { std::signal(SIGINT, previous_); }

private:
  void (*previous_)(int);
};

double number_option(const arguments& args, const std::string& name, double fallback) {
  const std::string* text = args.optional(name);
  if (!text) return fallback;
  try {
    std::size_t used = 0;
    double value = std::stod(*text, &used);
    if (used == text->size() && value >= 0) return value;
  } catch (const std::exception&) {
  }
  throw error("sadsl tune: --" + name + ": \"" + *text + "\" is not a non-negative number");
}

std::vector<std::string> descriptor_files(const arguments& args) {
  if (const std::string* folder = args.optional("descriptors")) {
    std::vector<std::string> files;
    if (std::filesystem::is_directory(*folder))
      for (const auto& entry : std::filesystem::directory_iterator(*folder))
        if (entry.path().extension() == ".json") files.push_back(entry.path().string());
    if (files.empty()) throw error("sadsl tune: --descriptors: no .json descriptors in \"" + *folder + "\"");
    std::sort(files.begin(), files.end());
    return files;
  }
  return {args.required("descriptor", "FILE (or --descriptors FOLDER)")};
}

std::map<std::string, std::int64_t> sizes_from(const arguments& args) {
  std::map<std::string, std::int64_t> sizes;
  for (const auto& [name, value] : parse_assignments(args, "size", args.required("size", "i=N,j=N,..."))) sizes[name] = static_cast<std::int64_t>(value);
  return sizes;
}

tune::search_options options_from(const arguments& args) {
  tune::search_options options;
  if (const std::string* goal = args.optional("objective")) options.goal = tune::objective_named(*goal);
  options.seconds = number_option(args, "seconds", 5);
  options.max_evaluations = static_cast<std::uint64_t>(number_option(args, "evaluations", 0));
  options.seed = static_cast<std::uint64_t>(number_option(args, "seed", 1));
  options.threads = static_cast<unsigned>(number_option(args, "threads", 0));
  options.stop = &interrupted;
  if (isatty(STDERR_FILENO))
    options.on_progress = [](const tune::search_progress& p) {
      std::fprintf(stderr, "\r%s %s: %llu evaluations, best %.6g, %.1f s   ", p.method.c_str(), p.design.c_str(),
                   static_cast<unsigned long long>(p.evaluations), p.best_cost, p.seconds);
      std::fflush(stderr);
    };
  return options;
}

void print_text(const nlohmann::ordered_json& config, std::ostream& out) {
  for (const auto& [key, value] : config.items()) {
    out << key << std::string(key.size() < 18 ? 18 - key.size() : 1, ' ');
    out << (value.is_string() ? value.get<std::string>() : value.dump()) << "\n";
  }
}

int run_tune(const arguments& args, std::ostream& out) {
  args.allow_only({"descriptor", "descriptors", "size", "device", "method", "seconds", "evaluations", "seed", "threads",
                   "objective", "json"});
  tune::device target = device_option(args);
  std::string method = args.optional("method") ? *args.optional("method") : "genetic-mp";
  tune::make_search(method);  // rejects an unknown method before any work
  tune::search_options options = options_from(args);
  std::map<std::string, std::int64_t> sizes = sizes_from(args);
  std::vector<tune::design_space> spaces;
  for (const std::string& file : descriptor_files(args)) spaces.emplace_back(tune::load_descriptor(file), sizes, target);
  interrupted.store(false);
  tune::multi_result result;
  {
    interrupt_scope scope;
    result = tune::tune_designs(spaces, method, options);
  }
  if (options.on_progress) std::fprintf(stderr, "\n");
  std::size_t shown = result.found() ? result.best_index : 0;
  nlohmann::ordered_json config = tune::tuned_configuration(spaces[shown], result.per_design[shown], options.goal);
  config["interrupted"] = interrupted.load();
  if (spaces.size() > 1) config["designs"] = tune::comparison_table(spaces, result);
  if (args.flag("json")) out << config.dump(2) << "\n";
  else print_text(config, out);
  if (!result.found()) std::cerr << "sadsl tune: no feasible design point found\n";
  return result.found() ? 0 : 1;
}

const command_registration tune_registration{
    "tune",
    {"search a design space: --descriptor FILE | --descriptors FOLDER --size i=N,... [--device u250|u280|u200|vu9p|FILE] "
     "[--method exact|genetic|genetic-mp|mp|padding|annealing|random] [--seconds S] [--evaluations N] [--seed N] "
     "[--threads N] [--objective latency|throughput|offchip|dsp] [--json]",
     {"json"},
     run_tune}};

}  // namespace
}  // namespace sadsl::cli
