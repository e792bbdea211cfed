#pragma once
// The replay driver's deterministic mutator (fuzz/replay_main.cpp): the same seed and corpus give
// the same sequence of inputs on every machine (its own random numbers, no std:: distributions).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sadsl::fuzz {

using bytes = std::string;

/// FNV-1a of the input (names crash files).
std::uint64_t hash(const bytes& input);
/// 16 lower-case hex digits.
std::string hex(std::uint64_t value);

/// Every regular file of the given files and folders (a folder's files sorted by name).
std::vector<bytes> read_corpus(const std::vector<std::string>& paths);

/// The tokens of a libFuzzer/AFL dictionary: lines `name="value"` or `"value"` with \\, \" and
/// \xNN escapes; `#` starts a comment. An empty path gives no tokens.
std::vector<bytes> read_dictionary(const std::string& path);

struct mutator_settings {
  std::vector<bytes> dictionary;
  std::size_t max_len = 4096;
};

/// Inputs made from the corpus by stacked mutations; a chain of mutants is followed for a while
/// before starting again from a corpus input.
class mutator {
public:
  mutator(mutator_settings settings, std::vector<bytes> corpus, std::uint64_t seed);
  bytes next();

private:
  std::uint64_t random();
  std::size_t below(std::size_t n);  ///< uniform in [0, n), n >= 1
  void mutate_once(bytes& data);
  void insert_bytes(bytes& data);
  void erase_range(bytes& data);
  void repeat_chunk(bytes& data);
  void splice(bytes& data);
  void put_token(bytes& data, bool overwrite);
  void replace_number(bytes& data);

  mutator_settings settings_;
  std::vector<bytes> corpus_;
  std::uint64_t state_;
  bytes chain_;
  int chain_left_ = 0;
};

}  // namespace sadsl::fuzz
