#include "sadsl/core/identity.hpp"

#include <atomic>

namespace sadsl {

uint64_t next_identity_key() {
  static std::atomic<uint64_t> last{0};
  return ++last;
}

std::string_view level_name(tile_level level) {
  switch (level) {
    case tile_level::array_partition: return "array_partition";
    case tile_level::latency_hiding: return "latency_hiding";
    case tile_level::simd: return "simd";
  }
  return "?";
}

std::string factor_name(const loop_id& loop, int chain_position) {
  return loop.name() + "_t" + std::to_string(chain_position);
}

std::string_view io_group_kind_name(io_group_kind kind) {
  switch (kind) {
    case io_group_kind::read: return "read";
    case io_group_kind::flow: return "flow";
    case io_group_kind::output: return "output";
  }
  return "?";
}

}  // namespace sadsl
