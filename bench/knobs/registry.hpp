#pragma once
// The benchmark's spaces: one function per kernel, instantiated for each architecture. Knob ranges
// are what a user declares without knowing the architecture's limits (up to the resources of the
// largest architecture and beyond), so, as in paper 004 Figure 10, much of each space fails. To add a
// space, write a function returning test_space objects and append it to `space_families`. The last
// family is a real performance model: Odyssey's MM design, where over-used DSP/BRAM fails.
#include <functional>
#include <vector>

#include "conv.hpp"
#include "fir.hpp"
#include "mm.hpp"
#include "odyssey_mm.hpp"
#include "smith_waterman.hpp"

namespace sadsl::knobs::bench {

/// A family of spaces: returns all its instances (e.g. one per architecture).
using space_family = std::function<std::vector<test_space>()>;

/// A family made of one kernel on each of the four CGRA architectures.
inline space_family on_every_architecture(test_space (*make)(const architecture&)) {
  return [make] {
    std::vector<test_space> spaces;
    for (const architecture& a : architectures()) spaces.push_back(make(a));
    return spaces;
  };
}

/// Every family; the Odyssey model space only where its descriptor is (not in a user's checkout).
inline std::vector<space_family> space_families() {
  std::vector<space_family> families{on_every_architecture(fir_space), on_every_architecture(mm_space),
                                     on_every_architecture(conv_space), on_every_architecture(smith_waterman_space)};
  if (std::filesystem::exists(odyssey_mm_descriptor()))
    families.push_back([] { return std::vector<test_space>{odyssey_mm_space()}; });
  return families;
}

inline std::vector<test_space> all_spaces() {
  std::vector<test_space> spaces;
  for (const space_family& family : space_families())
    for (test_space& s : family()) spaces.push_back(std::move(s));
  return spaces;
}

/// Every configuration of a problem, in row-major order of the knobs' settings.
inline std::vector<configuration> every_configuration(const problem& p) {
  const auto knobs = std::make_shared<const std::vector<knob>>(p.knobs());
  std::vector<configuration> all;
  std::vector<std::uint32_t> settings(knobs->size(), 0);
  for (;;) {
    all.emplace_back(knobs, settings);
    std::size_t i = settings.size();
    while (i-- > 0) {
      if (++settings[i] < (*knobs)[i].size()) break;
      settings[i] = 0;
    }
    if (i == static_cast<std::size_t>(-1)) return all;
  }
}

}  // namespace sadsl::knobs::bench
