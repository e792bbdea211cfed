#pragma once
// Dependences of a program: flow (RAW), anti (WAR), output (WAW) and read (RAR). Flow, anti and
// output dependences are value-based (isl's dataflow analysis: the nearest source). Read
// dependences follow AutoSA: for a read-only tensor, consecutive reads of the same element along
// each unit direction of the access's null space, i.e. along each loop its index does not use
// (A(i, k) in MM is reused along j). Each dependence carries its distance vectors over the loops its
// source and sink share in the schedule.
#include <isl/cpp.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sadsl/poly/program.hpp"

namespace sadsl {

enum class dep_kind { flow, anti, output, read };
std::string_view dep_kind_name(dep_kind k);

/// One distance vector: each component is a function of the params only (not of the iterators),
/// e.g. (0, 1) or (1, 1 - Q).
struct distance_vector {
  std::vector<isl::pw_aff> components;
  /// The integer vector, when every component is a constant.
  std::optional<std::vector<int64_t>> constant() const;
  /// Whether component d equals v for every value of the params.
  bool component_is(size_t d, int64_t v) const;
  std::string str() const;
};

struct dependence {
  /// Keeps the kernel's isl context alive as long as the isl objects below (first member: last
  /// destroyed), so dependences may outlive the program they were computed from.
  std::shared_ptr<detail::kernel_state> owner;
  dep_kind kind;
  statement_id source, sink;
  tensor_id tensor;
  access_ref sink_access;    // the sink's access: its write (output, anti) or one of its reads
  isl::map relation;         // source instance -> sink instance
  std::vector<loop_id> loops;  // the shared (common band) loops the distance is measured on
  isl::set distance;         // { sink - source } over `loops`
  /// Uniform: every piece of the relation has a distance that does not depend on the iterators
  /// (an accumulation over loops p, q in [0, Q) has (0, 1) and, where q wraps around, (1, 1 - Q)).
  bool uniform = false;
  /// The distance vectors of the pieces, when uniform.
  std::vector<distance_vector> distances;
  /// The integer distance vectors, when uniform and all constant (else empty).
  std::vector<std::vector<int64_t>> constant_distances() const;

  bool is_uniform() const { return uniform; }
  /// "(0, 0, 1)", "(0, 1) (1, -2)", or the distance set when not uniform.
  std::string distance_str() const;
};

/// The sink's access as written ("A(i, k)").
std::string access_text(const program& p, const access_ref& a);

/// The distance vectors of a relation { [x] -> [y] } between points of spaces of the same
/// dimension, piece by piece; std::nullopt when some piece's distance depends on the iterators.
std::optional<std::vector<distance_vector>> uniform_distances(const isl::map& relation);

/// Every dependence of the program, in a deterministic order (kind, then sink, then source).
std::vector<dependence> compute_dependences(const program& p);

}  // namespace sadsl
