#pragma once
// Dependences of a program: flow (RAW), anti (WAR), output (WAW) and read (RAR, between
// consecutive reads of the same element of a read-only tensor, as in AutoSA). Each carries its
// distance vectors over the loops its source and sink share in the schedule.
#include <isl/cpp.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sadsl/poly/program.hpp"

namespace sadsl {

enum class dep_kind { flow, anti, output, read };
std::string_view dep_kind_name(dep_kind k);

struct dependence {
  dep_kind kind;
  std::string source, sink;  // statement names
  std::string tensor;
  std::string sink_access;   // the sink's access as written ("A(i, k)")
  isl::map relation;         // source instance -> sink instance
  std::vector<std::string> loops;  // the shared (common band) loops the distance is measured on
  isl::set distance;         // { sink - source } over `loops`
  std::optional<std::vector<int64_t>> uniform;  // the constant distance, when it is one

  bool is_uniform() const { return uniform.has_value(); }
  /// "(0, 0, 1)" or the distance set when not uniform.
  std::string distance_str() const;
};

/// Every dependence of the program, in a deterministic order (kind, then sink, then source).
std::vector<dependence> compute_dependences(const program& p);

}  // namespace sadsl
