#pragma once
// What every fuzz target checks: an input may be refused only with a sadsl::error. Any other
// exception escapes LLVMFuzzerTestOneInput (std::terminate: a crash both drivers report), and a
// broken property ends in fuzz_check's abort with a message.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sadsl/error.hpp"

namespace sadsl::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// Runs `work`; a sadsl::error is a refused input, anything else a failure.
template <class Work>
bool refused(Work&& work) {
  try {
    work();
  } catch (const sadsl::error&) {
    return true;
  }
  return false;
}

/// A property every accepted input must have.
inline void fuzz_check(bool holds, const char* what) {
  if (holds) return;
  std::fprintf(stderr, "== fuzz: check failed: %s\n", what);
  std::abort();
}

}  // namespace sadsl::fuzz
