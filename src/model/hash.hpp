#pragma once
// Internal: the content hash used to name generated code and cached libraries.
#include <cstdint>
#include <cstdio>
#include <string>

namespace sadsl::model {

/// 64-bit FNV-1a of `text` as 16 hex digits (stable across runs and platforms).
inline std::string content_hash(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(h));
  return buffer;
}

}  // namespace sadsl::model
