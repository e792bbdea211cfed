#pragma once
// Typed identities of the objects a user describes — loops, params, tensors, statements — and of
// the things the compiler derives from them: a tiling factor is (loop, level), a packing factor
// is (tensor, I/O group kind, I/O level). Modules exchange these, never spellings: two
// identities are the same object when their keys are equal; the name they carry is for printing
// only and is never parsed back.
//
// This header is the bottom of the layering: every area (dsl, poly, compute, comm, codegen,
// model, tune) may use it, so that, e.g., a performance-model parameter can say which loop and
// level it tiles without the model library knowing about kernels.
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sadsl {

/// A new key for an identity: process-wide, never 0, increasing in creation order (so ordering
/// identities by key orders them by declaration).
uint64_t next_identity_key();

/// An identity of kind Tag: equal when the keys are; ordered by key.
template <class Tag>
class identity {
public:
  identity() = default;
  identity(uint64_t key, std::string name) : key_(key), name_(std::move(name)) {}
  /// An identity with a new key (for objects that no kernel declares, e.g. an imported model's).
  static identity fresh(std::string name) { return identity(next_identity_key(), std::move(name)); }

  uint64_t key() const { return key_; }
  /// The user's name of the object, for messages and generated text.
  const std::string& name() const { return name_; }
  /// False for a default-constructed identity (no object).
  bool valid() const { return key_ != 0; }

  friend bool operator==(const identity& a, const identity& b) { return a.key_ == b.key_; }
  friend std::strong_ordering operator<=>(const identity& a, const identity& b) { return a.key_ <=> b.key_; }

private:
  uint64_t key_ = 0;
  std::string name_;
};

/// The names of identities, comma separated ("i, j, k"), for messages and dumps.
template <class Id>
std::string join_names(const std::vector<Id>& ids, std::string_view separator = ", ") {
  std::string out;
  for (const auto& x : ids) {
    if (!out.empty()) out += separator;
    out += x.name();
  }
  return out;
}

struct loop_tag;
struct param_tag;
struct tensor_tag;
struct statement_tag;
/// A loop of a kernel (`loop i(I)`).
using loop_id = identity<loop_tag>;
/// A problem-size param of a kernel (`kernel.param("I", 1024)`).
using param_id = identity<param_tag>;
/// A tensor of a kernel (input, output, inout or local).
using tensor_id = identity<tensor_tag>;
/// A recorded statement (S0, S1, ... in recording order, implicit initializations included).
using statement_id = identity<statement_tag>;

/// The tiling levels of a loop, outermost first: array partitioning (t1, tiles the loop and
/// may pad it), latency hiding (a divisor of t1 whose point loop is sunk innermost), SIMD (the
/// innermost, unrolled divisor).
enum class tile_level : uint8_t { array_partition, latency_hiding, simd };
/// "array_partition", "latency_hiding", "simd".
std::string_view level_name(tile_level level);

/// A tiling factor: the loop it tiles and at which level.
struct factor_id {
  loop_id loop;
  tile_level level = tile_level::array_partition;
  friend bool operator==(const factor_id&, const factor_id&) = default;
  friend std::strong_ordering operator<=>(const factor_id&, const factor_id&) = default;
};

/// A factor's printed name: `<loop>_t<position>`, position counting the loop's factors from 1
/// (t1 array partitioning; the SIMD factor is t2, or t3 when the loop also hides latency). This
/// is the one place that spells factors (Odyssey/AutoSA use the same names).
std::string factor_name(const loop_id& loop, int chain_position);

/// The kind of an I/O group (paper 003, "Communication Management"): read-only data (RAR reuse),
/// intermediate results that flow between PEs or are reloaded (RAW), final results drained to
/// DRAM.
enum class io_group_kind : uint8_t { read, flow, output };
/// "read", "flow", "output".
std::string_view io_group_kind_name(io_group_kind kind);

/// A data-packing factor: how many elements one word carries at an I/O level (1 = beside the
/// PEs, the highest level beside DRAM) of a tensor's I/O group.
struct pack_id {
  tensor_id tensor;
  io_group_kind group = io_group_kind::read;
  int level = 1;
  friend bool operator==(const pack_id&, const pack_id&) = default;
  friend std::strong_ordering operator<=>(const pack_id&, const pack_id&) = default;
};

}  // namespace sadsl
