#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "sadsl/error.hpp"
#include "sadsl/poly/interpreter.hpp"

namespace sadsl {

namespace {

int64_t param_value(const detail::symbol_node& s) {
  SADSL_INTERNAL_ASSERT(s.kind == detail::symbol_kind::param, "tensor extent uses loop " + s.name);
  return detail::size_of(s);
}

int64_t element_count(const std::vector<int64_t>& extents) {
  int64_t n = 1;
  for (auto e : extents) n *= e;
  return n;
}

// The bytes one buffers object may allocate: the machine's physical memory. The buffers are
// zero-filled, which touches every page: past that, Linux would not fail the allocation but kill
// the process.
uint64_t memory_limit() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page)
                               : std::numeric_limits<uint64_t>::max();
}

// A tensor's size at the current param values, computed without overflow before allocating.
struct tensor_size {
  std::string what;     // "tensor \"A\" of kernel \"k\"", for messages
  std::string extents;  // "[N, N] = [1024, 1024]"
  int64_t elements = 0, bytes = 0;

  tensor_size(const std::string& kernel_name, const detail::tensor_node& t, const std::vector<int64_t>& values)
      : what(fmt::format("tensor \"{}\" of kernel \"{}\"", t.name, kernel_name)) {
    std::vector<std::string> texts;
    for (const auto& e : t.extents) texts.push_back(e.str());
    extents = fmt::format("[{}] = [{}]", fmt::join(texts, ", "), fmt::join(values, ", "));
    elements = 1;
    for (int64_t v : values)
      if (__builtin_mul_overflow(elements, v, &elements))
        throw error(fmt::format("{} is too large: extents {} at the current param values make more than 2^63 elements",
                                what, extents));
    int64_t size = type_size(t.type);
    if (__builtin_mul_overflow(elements, size, &bytes))
      throw error(fmt::format("{} is too large: extents {} at the current param values make {} elements of {} bytes, "
                              "more than 2^63 bytes",
                              what, extents, elements, size));
  }
  std::string str() const { return fmt::format("extents {}, {} elements ({} bytes)", extents, elements, bytes); }
};

void check_memory(const std::string& kernel_name, const std::vector<tensor_size>& sizes, uint64_t total) {
  uint64_t limit = memory_limit();
  if (total <= limit) return;
  auto largest = std::max_element(sizes.begin(), sizes.end(),
                                  [](const tensor_size& a, const tensor_size& b) { return a.bytes < b.bytes; });
  std::string need = total == std::numeric_limits<uint64_t>::max() ? "more than 2^64" : std::to_string(total);
  throw error(fmt::format("buffers of kernel \"{}\" need {} bytes at the current param values, more than this "
                          "machine's memory ({} bytes); the largest is {}: {}",
                          kernel_name, need, limit, largest->what, largest->str()));
}

}  // namespace

buffers::buffers(const kernel& k) : buffers(k.name(), k.tensors()) {}

buffers::buffers(const std::string& kernel_name, const std::vector<tensor_ptr>& tensors, bool locals)
    : kernel_name_(kernel_name) {
  std::vector<buffer> made;
  std::vector<tensor_size> sizes;
  uint64_t total = 0;
  for (const auto& t : tensors) {
    if ((t->role == tensor_role::local) != locals) continue;
    buffer b;
    b.tensor = t;
    for (const auto& e : t->extents) {
      int64_t v = e.evaluate(param_value);
      if (v < 0)
        throw error(fmt::format("extent {} of tensor \"{}\" is negative ({}) at the current param values", e.str(),
                                t->name, v));
      b.extents.push_back(v);
    }
    sizes.emplace_back(kernel_name, *t, b.extents);
    if (__builtin_add_overflow(total, static_cast<uint64_t>(sizes.back().bytes), &total))
      total = std::numeric_limits<uint64_t>::max();
    made.push_back(std::move(b));
  }
  check_memory(kernel_name, sizes, total);
  for (size_t i = 0; i < made.size(); ++i) {
    buffer& b = made[i];
    auto n = static_cast<size_t>(sizes[i].elements);
    try {
      visit_type(b.tensor->type, [&](auto v) { b.data = std::vector<decltype(v)>(n); });
    } catch (const std::bad_alloc&) {
      throw error(fmt::format("could not allocate {}: {}", sizes[i].what, sizes[i].str()));
    } catch (const std::length_error&) {
      throw error(fmt::format("could not allocate {}: {}", sizes[i].what, sizes[i].str()));
    }
    buffers_.emplace(b.tensor->name, std::move(b));
  }
}

buffers::buffer& buffers::checked(const std::string& name, elem_type t) {
  auto it = buffers_.find(name);
  if (it == buffers_.end()) throw error(fmt::format("kernel \"{}\" has no tensor \"{}\"", kernel_name_, name));
  if (it->second.tensor->type != t)
    throw error(fmt::format("tensor \"{}\" holds {}, not {}", name, type_name(it->second.tensor->type), type_name(t)));
  return it->second;
}

void buffers::check_size(const std::string& name, size_t n) const {
  const auto& b = buffers_.at(name);
  auto want = static_cast<size_t>(element_count(b.extents));
  if (n != want)
    throw error(fmt::format("tensor \"{}\" needs {} elements, got {}", name, want, n));
}

const std::vector<int64_t>& buffers::extents(const std::string& name) const {
  auto it = buffers_.find(name);
  if (it == buffers_.end()) throw error(fmt::format("kernel \"{}\" has no tensor \"{}\"", kernel_name_, name));
  return it->second.extents;
}

void buffers::randomize_inputs(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (auto& [name, b] : buffers_) {
    if (b.tensor->role != tensor_role::input && b.tensor->role != tensor_role::inout) continue;
    std::visit([&](auto& v) {
      using T = typename std::decay_t<decltype(v)>::value_type;
      for (auto& x : v) {
        uint64_t r = rng();
        if constexpr (std::is_floating_point_v<T>)
          x = static_cast<T>(static_cast<double>(r >> 11) * 0x1.0p-53 * 2.0 - 1.0);  // [-1, 1)
        else if constexpr (std::is_signed_v<T>)
          x = static_cast<T>(static_cast<int64_t>(r % 15) - 7);
        else
          x = static_cast<T>(r % 15);
      }
    }, b.data);
  }
}

void buffers::permute(const std::string& name, const std::vector<int>& order) {
  auto it = buffers_.find(name);
  if (it == buffers_.end()) throw error(fmt::format("kernel \"{}\" has no tensor \"{}\"", kernel_name_, name));
  buffer& b = it->second;
  size_t rank = b.extents.size();
  std::vector<int> sorted(order);
  std::sort(sorted.begin(), sorted.end());
  for (size_t d = 0; d < sorted.size(); ++d)
    if (sorted.size() != rank || sorted[d] != static_cast<int>(d))
      throw error(fmt::format("layout of tensor \"{}\" must permute its {} dimensions", name, rank));
  std::vector<int64_t> extents(rank);
  for (size_t d = 0; d < rank; ++d) extents[d] = b.extents[order[d]];
  std::visit([&](auto& v) {
    auto out = v;
    std::vector<int64_t> idx(rank, 0);
    for (size_t at = 0; at < v.size(); ++at) {  // idx: the tensor index of element `at` (old layout)
      int64_t dst = 0;
      for (size_t d = 0; d < rank; ++d) dst = dst * extents[d] + idx[order[d]];
      out[dst] = v[at];
      for (size_t d = rank; d-- > 0;)
        if (++idx[d] < b.extents[d]) break;
        else idx[d] = 0;
    }
    v = std::move(out);
  }, b.data);
  b.extents = std::move(extents);
}

bool buffers::operator==(const buffers& other) const {
  if (buffers_.size() != other.buffers_.size()) return false;
  for (const auto& [name, b] : buffers_) {
    auto it = other.buffers_.find(name);
    if (it == other.buffers_.end() || it->second.extents != b.extents || it->second.data.index() != b.data.index())
      return false;
    bool same = std::visit([&](const auto& v) {
      const auto& w = std::get<std::decay_t<decltype(v)>>(it->second.data);
      return v.size() == w.size() && (v.empty() || std::memcmp(v.data(), w.data(), v.size() * sizeof(v[0])) == 0);
    }, b.data);
    if (!same) return false;
  }
  return true;
}

}  // namespace sadsl
