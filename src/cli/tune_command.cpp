// sadsl tune: searches a descriptor's design space (or every descriptor of a folder: all
// dataflows x permutations) and prints the tuned configuration. The time budget counts from the
// start of the command, run-time compilation included. SIGINT, SIGTERM and SIGHUP stop the work
// in progress (compilation, listing, search); the best point so far is still written, and the
// exit status (128 + the signal's number) says the run was cut short.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "options.hpp"
#include "output.hpp"
#include "sadsl/tune/tune.hpp"
#include "signals.hpp"

namespace sadsl::cli {
namespace {

using clock_type = std::chrono::steady_clock;

struct tune_options {
  std::string descriptor, descriptors, size, device, method = "genetic-mp", seconds = "5", evaluations = "0", seed = "1",
      threads = "0", objective, operations, output;
  bool json = false;
  bool integer = false;
  bool prove_each_design = false;
};

// A name the library does not know (method, objective) is a mistake in the command line.
template <class Make>
auto as_usage_error(const std::string& option, Make make) {
  try {
    return make();
  } catch (const error& e) {
    throw usage_error("sadsl tune: --" + option + ": " + e.what());
  }
}

std::vector<std::string> descriptor_files(const tune_options& o) {
  if (!o.descriptor.empty() && !o.descriptors.empty())
    throw usage_error("sadsl tune: give --descriptor FILE or --descriptors FOLDER, not both");
  if (o.descriptors.empty()) {
    if (o.descriptor.empty()) throw usage_error("sadsl tune: missing --descriptor FILE (or --descriptors FOLDER)");
    return {o.descriptor};
  }
  std::vector<std::string> files;
  std::error_code failed;
  for (std::filesystem::directory_iterator it(o.descriptors, failed), end; !failed && it != end; it.increment(failed))
    if (it->path().extension() == ".json") files.push_back(it->path().string());
  if (failed) throw error("sadsl tune: --descriptors: cannot read folder " + o.descriptors + ": " + failed.message());
  if (files.empty()) throw error("sadsl tune: --descriptors: no .json descriptors in \"" + o.descriptors + "\"");
  std::sort(files.begin(), files.end());
  return files;
}

tune::search_options search_options_from(const tune_options& o) {
  tune::search_options options;
  if (!o.objective.empty()) options.goal = as_usage_error("objective", [&] { return tune::objective_named(o.objective); });
  options.seconds = parse_number("tune", "seconds", o.seconds, false);
  options.max_evaluations = parse_whole("tune", "evaluations", o.evaluations, UINT64_MAX);
  options.seed = parse_whole("tune", "seed", o.seed, UINT64_MAX);
  options.threads = static_cast<unsigned>(parse_whole("tune", "threads", o.threads, 1024));
  options.settings.cutoff_across_designs = !o.prove_each_design;
  options.stop = &stop_requested();
  if (isatty(STDERR_FILENO))
    options.on_progress = [](const tune::search_progress& p) {
      std::fprintf(stderr, "\r%s %s: %llu evaluations, best %.6g, %.1f s   ", p.method.c_str(), p.design.c_str(),
                   static_cast<unsigned long long>(p.evaluations), p.best_cost, p.seconds);
      std::fflush(stderr);
    };
  return options;
}

// Every design's space; stops early (keeping the spaces built so far) when a signal arrives.
// The space is built (sizes checked, tilings listed) before the model is compiled, so that a bad
// size is reported at once; a model that cannot be compiled in time is evaluated by the
// interpreter, said on stderr.
std::vector<tune::design_space> load_spaces(const std::vector<std::string>& files, const tune_options& o,
                                            const tune::device& target, std::optional<clock_type::time_point> deadline) {
  std::map<std::string, std::int64_t> sizes;
  for (const auto& [name, value] : parse_assignments("tune", "size", o.size)) sizes[name] = value;
  model::evaluator_options interpret;
  interpret.use_ahead_of_time = interpret.use_just_in_time = false;
  model::evaluator_options compile;
  compile.jit.stop = &stop_requested();
  compile.jit.deadline = deadline;
  tune::space_options listing;
  listing.stop = &stop_requested();
  std::vector<tune::design_space> spaces;
  for (const std::string& file : files) {
    if (stop_requested()) break;
    std::shared_ptr<const model::evaluator> interpreter = tune::load_descriptor(file, interpret);
    std::optional<tune::design_space> space;
    try {
      space.emplace(interpreter, sizes, target, listing);
    } catch (const error&) {
      if (stop_requested()) break;
      throw;
    }
    auto compiled = std::make_shared<const model::evaluator>(interpreter->model(), compile);
    if (!compiled->fallback_reason().empty() && !stop_requested())
      std::cerr << "sadsl tune: " << file << ": evaluating with the interpreter: " << compiled->fallback_reason() << "\n";
    spaces.push_back(space->with_evaluator(compiled));
  }
  return spaces;
}

// The configuration when no design could be searched (a signal arrived while loading them).
nlohmann::ordered_json nothing_tuned() {
  return {{"design", nullptr}, {"feasible", false}, {"latency", nullptr}};
}

int run_tune(const tune_options& o, std::ostream& out) {
  auto start = clock_type::now();
  tune::device target = parse_device("tune", o.device);
  as_usage_error("method", [&] { return tune::make_search(o.method); });  // an unknown method, before any work
  tune::search_options options = search_options_from(o);
  std::optional<tune::workload> work;
  if (!o.operations.empty()) work = tune::workload{parse_number("tune", "operations", o.operations, true), !o.integer};
  std::optional<clock_type::time_point> deadline;
  if (options.seconds > 0) deadline = start + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(options.seconds));
  std::vector<tune::design_space> spaces = load_spaces(descriptor_files(o), o, target, deadline);
  nlohmann::ordered_json config = nothing_tuned();
  bool found = false;
  if (!spaces.empty()) {
    // The budget counts from the start of the command: compiling and listing used part of it.
    if (deadline) options.seconds = std::max(1e-3, std::chrono::duration<double>(*deadline - clock_type::now()).count());
    tune::multi_result result = tune::tune_designs(spaces, o.method, options);
    if (options.on_progress) std::fprintf(stderr, "\n");
    config = tune::tuned_configuration(spaces, result, options.goal, work);  // proven over all designs
    if (spaces.size() > 1) config["designs"] = tune::comparison_table(spaces, result);
    found = result.found();
  }
  config["interrupted"] = received_signal() != 0;
  write_result("tune", o.output, o.json ? config.dump(2) + "\n" : text_lines(config), out);
  if (received_signal()) {
    std::cerr << "sadsl tune: stopped by " << signal_name(received_signal()) << "; the best point so far was written\n";
    return exit_signal_base + received_signal();
  }
  if (!found) std::cerr << "sadsl tune: no feasible design point found\n";
  return found ? exit_success : exit_user_error;
}

command_runner define_tune(CLI::App& app) {
  auto o = std::make_shared<tune_options>();
  add_value(app, "descriptor", o->descriptor, "FILE", "the design's descriptor (AutoSA/Odyssey JSON)");
  add_value(app, "descriptors", o->descriptors, "FOLDER", "tune every *.json descriptor of FOLDER and compare them");
  add_value(app, "size", o->size, "i=N,...", "every problem size, 1 to 2^53")->required();
  add_value(app, "device", o->device, "NAME|FILE", "u250 (default), u280, u200, vu9p or a device JSON file");
  add_value(app, "method", o->method, "METHOD", "exact, genetic, genetic-mp (default), mp, padding, annealing or random");
  add_value(app, "seconds", o->seconds, "S", "time budget from the start of the command, compilation included (default 5; 0: none)");
  add_value(app, "evaluations", o->evaluations, "N", "evaluation budget (default 0: none)");
  add_value(app, "seed", o->seed, "N", "random seed (default 1)");
  add_value(app, "threads", o->threads, "N", "threads of the exact search, at most 1024 (default 0: all cores)");
  add_value(app, "objective", o->objective, "NAME", "latency (default), throughput, offchip or dsp");
  add_value(app, "operations", o->operations, "N",
            "operations of one run at these sizes (e.g. 2*I*J*K for MM): reports the throughput");
  add_flag(app, "prove-each-design", o->prove_each_design,
           "exact search of a folder: prove every design's own optimum (default: skip what cannot beat the best so far)");
  add_flag(app, "integer", o->integer, "the operations are integer ones (GOP/s, not GFLOP/s)");
  add_value(app, "output", o->output, "FILE", "write the configuration to FILE (replaced atomically) instead of stdout");
  add_flag(app, "json", o->json, "print JSON (else key value lines)");
  return [o](std::ostream& out) { return run_tune(*o, out); };
}

const command_registration tune_registration{"tune", {"search the design space of one or more descriptors", define_tune}};

}  // namespace
}  // namespace sadsl::cli
