// sadsl emit: the C++ source of a descriptor's model (used by the CMake helper sadsl_add_model).
#include <memory>

#include "command.hpp"
#include "output.hpp"
#include "sadsl/model/compile.hpp"
#include "sadsl/model/files.hpp"
#include "sadsl/model/odyssey.hpp"

namespace sadsl::cli {
namespace {

struct emit_options {
  std::string descriptor, name, output;
  bool register_model = false;
};

int run_emit(const emit_options& o, std::ostream& out) {
  model::design_model m = model::import_odyssey_descriptor(o.descriptor, o.name);
  model::emit_options options;
  options.register_ahead_of_time = o.register_model;
  std::string source = model::emit_cpp(m, options);
  // Rewrite only on change, so the build does not recompile unchanged models.
  if (!o.output.empty() && model::file_has_content(o.output, source)) return exit_success;
  write_result("emit", o.output, source, out);
  return exit_success;
}

command_runner define_emit(CLI::App& app) {
  auto o = std::make_shared<emit_options>();
  add_value(app, "descriptor", o->descriptor, "FILE", "the design's descriptor (AutoSA/Odyssey JSON)")->required();
  add_value(app, "name", o->name, "NAME", "the model's name (default: the descriptor's file name)");
  add_value(app, "output", o->output, "FILE", "write the source to FILE (replaced atomically, only when it changes)");
  add_flag(app, "register", o->register_model, "add a static initializer that registers the model ahead of time");
  return [o](std::ostream& out) { return run_emit(*o, out); };
}

const command_registration emit_registration{"emit", {"write a descriptor's model as C++", define_emit}};

}  // namespace
}  // namespace sadsl::cli
