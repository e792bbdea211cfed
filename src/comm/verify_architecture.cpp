// The executor as a check: the architecture against the kernel as written.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "sadsl/comm/executor.hpp"
#include "sadsl/compute/verify.hpp"
#include "sadsl/poly/program.hpp"

namespace sadsl {

namespace {

template <class T>
std::string first_difference(const std::string& tensor, const std::vector<T>& got, const std::vector<T>& want,
                             double tolerance) {
  for (size_t x = 0; x < want.size(); ++x) {
    double g = static_cast<double>(got[x]), w = static_cast<double>(want[x]);
    bool same = tolerance == 0 ? got[x] == want[x] : std::fabs(g - w) <= tolerance * std::max(1.0, std::fabs(w));
    if (!same) return fmt::format("{}[{}] is {} instead of {}", tensor, x, +got[x], +want[x]);
  }
  return "";
}

}  // namespace

std::string output_difference(const kernel& k, const buffers& got, const buffers& want, double tolerance) {
  for (const auto& t : k.tensors()) {
    if (t->role != tensor_role::output && t->role != tensor_role::inout) continue;
    std::string diff = std::visit(
        [&](const auto& w) {
          using V = std::decay_t<decltype(w)>;
          return first_difference(t->name, std::get<V>(got.all().at(t->name).data), w, tolerance);
        },
        want.all().at(t->name).data);
    if (!diff.empty()) return diff;
  }
  return "";
}

std::string verify_architecture(const architecture& a, uint64_t seed) {
  return verify_architecture(a, reference_run(a.design->band->source->kernel(), seed), seed);
}

std::string verify_architecture(const architecture& a, const buffers& want, uint64_t seed) {
  const kernel& k = a.design->band->source->kernel();
  buffers got(k);
  got.randomize_inputs(seed);
  execution_result x = execute(a, got);
  std::string name = a.design->name();
  if (!x.ok()) return fmt::format("architecture of design {}: {}", name, x.deadlock);
  std::string diff = output_difference(k, got, want, a.reduction_reordered ? 1e-5 : 0);
  return diff.empty() ? "" : fmt::format("architecture of design {}: {}", name, diff);
}

}  // namespace sadsl
