// sadsl emit: the C++ source of a descriptor's model (used by the CMake helper sadsl_add_model).
#include <fstream>

#include "command.hpp"
#include "sadsl/error.hpp"
#include "sadsl/model/compile.hpp"
#include "sadsl/model/odyssey.hpp"

namespace sadsl::cli {
namespace {

int run_emit(const arguments& args, std::ostream& out) {
  args.allow_only({"descriptor", "name", "output", "register"});
  const std::string* name = args.optional("name");
  model::design_model m = model::import_odyssey_descriptor(args.required("descriptor", "FILE"), name ? *name : "");
  model::emit_options options;
  options.register_ahead_of_time = args.flag("register");
  std::string source = model::emit_cpp(m, options);
  const std::string* output = args.optional("output");
  if (!output) {
    out << source;
    return 0;
  }
  // Rewrite only on change, so the build does not recompile unchanged models.
  std::ifstream existing(*output, std::ios::binary);
  std::string old((std::istreambuf_iterator<char>(existing)), std::istreambuf_iterator<char>());
  if (existing && old == source) return 0;
  std::ofstream file(*output, std::ios::binary);
  file << source;
  if (!file) throw error("sadsl emit: cannot write " + *output);
  return 0;
}

const command_registration emit_registration{
    "emit",
    {"write a descriptor's model as C++: --descriptor FILE [--name NAME] [--output FILE.cpp] [--register]",
     {"register"},
     run_emit}};

}  // namespace
}  // namespace sadsl::cli
