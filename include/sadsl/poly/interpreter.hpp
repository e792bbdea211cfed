#pragma once
// The reference interpreter: executes a kernel's statements in the order of a schedule tree (its
// own, or any transformed one) on host buffers. It is the oracle of every pass: run the
// transformed schedule on random data and compare with the original.
//
//   buffers data(mm);                        // every tensor, sized by the current param values
//   data.get<float>("A") = ...;              // fill the inputs
//   run(build_program(mm), data);
//   const auto& C = data.get<float>("C");
#include <isl/cpp.h>

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "sadsl/poly/program.hpp"

namespace sadsl {

/// One row-major host buffer per tensor of a kernel, zero-filled. Local tensors live only inside
/// the kernel: the interpreter allocates them for each run.
class buffers {
public:
  using storage = std::variant<std::vector<float>, std::vector<double>, std::vector<int8_t>, std::vector<uint8_t>,
                               std::vector<int16_t>, std::vector<uint16_t>, std::vector<int32_t>, std::vector<uint32_t>>;

  /// Sizes every tensor for the kernel's current param values. sadsl::error naming the tensor and
  /// its size (elements and bytes) when a tensor has 2^63 elements or bytes or more, when the
  /// tensors together need more than the machine's physical memory (they are zero-filled: every
  /// page is touched), or when an allocation fails.
  explicit buffers(const kernel& k);
  /// Buffers for the given tensors: the non-local ones, or (locals = true) only the local ones.
  buffers(const std::string& kernel_name, const std::vector<tensor_ptr>& tensors, bool locals = false);

  /// The data of tensor `name`; sadsl::error if there is no such tensor or T is not its type.
  template <element T>
  std::vector<T>& get(const std::string& name) {
    return std::get<std::vector<T>>(checked(name, elem_type_of<T>::value).data);
  }
  template <element T>
  const std::vector<T>& get(const std::string& name) const {
    return std::get<std::vector<T>>(const_cast<buffers*>(this)->checked(name, elem_type_of<T>::value).data);
  }
  /// Replaces the data of tensor `name`; sadsl::error if the size or type does not match.
  template <element T>
  void set(const std::string& name, std::vector<T> data) {
    auto& b = checked(name, elem_type_of<T>::value);
    check_size(name, data.size());
    b.data = std::move(data);
  }
  /// Fills every input and inout tensor with deterministic pseudo-random values (small integers
  /// for integer types, values in [-1, 1) for floating point).
  void randomize_inputs(uint64_t seed);
  /// The extents of tensor `name` at the param values the buffers were made for.
  const std::vector<int64_t>& extents(const std::string& name) const;
  /// Permutes the dimensions of tensor `name` in place (a host-side layout transformation):
  /// stored dimension d becomes the tensor's dimension order[d].
  void permute(const std::string& name, const std::vector<int>& order);
  /// Whether every tensor holds exactly the same bytes as in `other`.
  bool operator==(const buffers& other) const;

  struct buffer {
    tensor_ptr tensor;
    std::vector<int64_t> extents;
    storage data;
  };
  const std::map<std::string, buffer>& all() const { return buffers_; }
  std::map<std::string, buffer>& all() { return buffers_; }

private:
  buffer& checked(const std::string& name, elem_type t);
  void check_size(const std::string& name, size_t n) const;
  std::string kernel_name_;
  std::map<std::string, buffer> buffers_;
};

/// A tensor whose buffer stores its dimensions permuted (see buffers::permute).
struct stored_layout {
  tensor_id tensor;
  std::vector<int> order;
};

/// How run() executes a schedule.
struct run_options {
  /// Tensors whose buffers store their dimensions permuted (a design's stored_layouts()).
  std::vector<stored_layout> layouts;
  /// Self-check, for tests: every executed statement instance must lie in its statement's domain
  /// (at the current param values), none may execute twice, and every instance of every domain
  /// must execute. A violation is an internal_error naming the statement, the instance and the
  /// problem. Costs one domain test per instance plus counting the domains' points (isl
  /// enumerates them): meant for small problem sizes. Off, the interpreter pays nothing for it.
  bool check_instances = false;
};

/// Executes the program in its own schedule's order on `data` (for the current param values).
void run(const program& p, buffers& data);
void run(const program& p, buffers& data, const run_options& options);
/// Executes the program's statements in the order of `schedule`, which must cover the same
/// statement instances (a transformation of the program's schedule).
void run(const program& p, const isl::schedule& schedule, buffers& data);
void run(const program& p, const isl::schedule& schedule, buffers& data, const run_options& options);
/// Same, with some tensors stored in permuted layouts.
void run(const program& p, const isl::schedule& schedule, buffers& data, const std::vector<stored_layout>& layouts);

}  // namespace sadsl
