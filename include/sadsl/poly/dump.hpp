#pragma once
// Readable dumps of the polyhedral program in isl notation (used by golden tests and examples).
#include <string>
#include <vector>

#include "sadsl/poly/dependences.hpp"
#include "sadsl/poly/program.hpp"

namespace sadsl {

/// Statements (text, domain, accesses, reduction loops), arrays and the schedule tree.
std::string dump_program(const program& p);
/// One line per dependence of program p: kind, source -> sink, tensor, distance, relation.
std::string dump_dependences(const program& p, const std::vector<dependence>& deps);

/// The loop nest a schedule generates (isl's AST printed as C), params kept symbolic.
std::string dump_schedule_code(const program& p, const isl::schedule& s);
/// Any isl object as isl prints it.
template <class T>
std::string isl_str(const T& x);

}  // namespace sadsl

#include <sstream>
template <class T>
std::string sadsl::isl_str(const T& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}
