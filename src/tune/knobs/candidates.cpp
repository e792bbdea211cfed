#include <algorithm>
#include <cmath>

#include "search_state.hpp"

namespace sadsl::knobs::detail {

namespace {
// Spaces up to this size are enumerated exactly; larger ones are sampled with rejection.
constexpr double enumeration_limit = 250000;

std::vector<std::uint32_t> decode(std::uint64_t flat, const std::vector<knob>& knobs) {
  std::vector<std::uint32_t> settings(knobs.size());
  for (std::size_t i = knobs.size(); i-- > 0;) {
    settings[i] = static_cast<std::uint32_t>(flat % knobs[i].size());
    flat /= knobs[i].size();
  }
  return settings;
}

double space_size(const std::vector<knob>& knobs) {
  double n = 1;
  for (const knob& k : knobs) n *= static_cast<double>(k.size());
  return n;
}

std::vector<configuration> from_enumeration(search_state& s, std::size_t count, std::uint64_t size) {
  std::vector<std::vector<std::uint32_t>> untested;
  for (std::uint64_t flat = 0; flat < size; ++flat) {
    auto settings = decode(flat, *s.problem.knobs);
    if (!s.tested.contains(settings)) untested.push_back(std::move(settings));
  }
  // Partial Fisher-Yates: the first `count` entries become a uniform sample without repeats.
  const std::size_t take = std::min(count, untested.size());
  std::vector<configuration> out;
  for (std::size_t i = 0; i < take; ++i) {
    std::swap(untested[i], untested[i + s.random.below(untested.size() - i)]);
    out.emplace_back(s.problem.knobs, untested[i]);
  }
  return out;
}

std::vector<configuration> by_rejection(search_state& s, std::size_t count) {
  std::set<std::vector<std::uint32_t>> chosen;
  std::vector<configuration> out;
  const std::vector<knob>& knobs = *s.problem.knobs;
  for (std::size_t attempt = 0; attempt < 50 * count && out.size() < count; ++attempt) {
    std::vector<std::uint32_t> settings(knobs.size());
    for (std::size_t i = 0; i < knobs.size(); ++i)
      settings[i] = static_cast<std::uint32_t>(s.random.below(knobs[i].size()));
    if (s.tested.contains(settings) || !chosen.insert(settings).second) continue;
    out.emplace_back(s.problem.knobs, std::move(settings));
  }
  return out;
}
}  // namespace

std::vector<configuration> untested_candidates(search_state& s, std::size_t count) {
  const double size = space_size(*s.problem.knobs);
  if (size <= enumeration_limit) return from_enumeration(s, count, static_cast<std::uint64_t>(size));
  return by_rejection(s, count);
}

}  // namespace sadsl::knobs::detail
