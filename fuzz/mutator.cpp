#include "mutator.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace sadsl::fuzz {

namespace {

bytes read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// The quoted value of a dictionary line, escapes resolved; empty when the line has none.
bytes dictionary_token(const std::string& line) {
  std::size_t open = line.find('"'), close = line.rfind('"');
  if (open == std::string::npos || close <= open) return {};
  bytes token;
  for (std::size_t i = open + 1; i < close; ++i) {
    if (line[i] != '\\' || i + 1 >= close) {
      token += line[i];
    } else if (line[i + 1] == 'x' && i + 3 < close && hex_digit(line[i + 2]) >= 0 && hex_digit(line[i + 3]) >= 0) {
      token += static_cast<char>(hex_digit(line[i + 2]) * 16 + hex_digit(line[i + 3]));
      i += 3;
    } else {
      token += line[++i];
    }
  }
  return token;
}

// Values that often sit on a boundary of a parser or a range check.
const char* const interesting_numbers[] = {"0", "1", "-1", "2", "255", "256", "-2147483648", "2147483647",
                                           "4294967296", "9007199254740993", "9223372036854775807",
                                           "18446744073709551616", "1e400", "-1e400", "1e-400", "1.5", "0.0",
                                           "-0", "1e308", "4.9e-324", "00", "0x10", "1e", "."};
const char interesting_bytes[] = {'\0', '\xff', '0', '9', '-', '+', '"', '\\', '{', '}', '[', ']', ',', ':',
                                  '(', ')', '/', '*', '=', ' ', '\n', 'e', '.'};

}  // namespace

std::uint64_t hash(const bytes& input) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : input) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string hex(std::uint64_t value) {
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) text[static_cast<std::size_t>(i)] = "0123456789abcdef"[value & 15];
  return text;
}

std::vector<bytes> read_corpus(const std::vector<std::string>& paths) {
  std::vector<bytes> corpus;
  for (const std::string& path : paths) {
    if (!std::filesystem::is_directory(path)) {
      if (!std::filesystem::is_regular_file(path)) throw std::runtime_error("fuzz: no such file or folder: " + path);
      corpus.push_back(read_file(path));
      continue;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(path))
      if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) corpus.push_back(read_file(file));
  }
  return corpus;
}

std::vector<bytes> read_dictionary(const std::string& path) {
  std::vector<bytes> tokens;
  if (path.empty()) return tokens;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("fuzz: cannot read dictionary " + path);
  for (std::string line; std::getline(in, line);) {
    std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    if (bytes token = dictionary_token(line); !token.empty()) tokens.push_back(token);
  }
  return tokens;
}

mutator::mutator(mutator_settings settings, std::vector<bytes> corpus, std::uint64_t seed)
    : settings_(std::move(settings)), corpus_(std::move(corpus)), state_(seed * 0x9e3779b97f4a7c15ull + 1) {
  if (corpus_.empty()) corpus_.push_back({});
}

// splitmix64
std::uint64_t mutator::random() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::size_t mutator::below(std::size_t n) { return static_cast<std::size_t>(random() % n); }

bytes mutator::next() {
  if (chain_left_-- <= 0) {
    chain_ = corpus_[below(corpus_.size())];
    chain_left_ = static_cast<int>(below(16));
  }
  for (std::size_t i = 0, n = 1 + below(4); i < n; ++i) mutate_once(chain_);
  if (chain_.size() > settings_.max_len) chain_.resize(settings_.max_len);
  return chain_;
}

void mutator::mutate_once(bytes& data) {
  switch (below(10)) {
    case 0:
      if (!data.empty()) data[below(data.size())] ^= static_cast<char>(1u << below(8));
      break;
    case 1:
      if (!data.empty()) data[below(data.size())] = interesting_bytes[below(sizeof interesting_bytes)];
      break;
    case 2: insert_bytes(data); break;
    case 3: erase_range(data); break;
    case 4: repeat_chunk(data); break;
    case 5: splice(data); break;
    case 6: put_token(data, false); break;
    case 7: put_token(data, true); break;
    default: replace_number(data); break;
  }
}

void mutator::insert_bytes(bytes& data) {
  std::size_t at = below(data.size() + 1), count = 1 + below(4);
  bytes inserted;
  for (std::size_t i = 0; i < count; ++i)
    inserted += below(2) ? static_cast<char>(random()) : interesting_bytes[below(sizeof interesting_bytes)];
  data.insert(at, inserted);
}

void mutator::erase_range(bytes& data) {
  if (data.empty()) return;
  std::size_t at = below(data.size());
  data.erase(at, 1 + below(std::min<std::size_t>(32, data.size() - at)));
}

// A chunk copied many times in place: long sums, deep nesting, many siblings.
void mutator::repeat_chunk(bytes& data) {
  if (data.empty()) return;
  std::size_t at = below(data.size()), length = 1 + below(std::min<std::size_t>(16, data.size() - at));
  bytes chunk = data.substr(at, length);
  std::size_t times = 1 + below(below(8) == 0 ? 512 : 8);
  bytes repeated;
  for (std::size_t i = 0; i < times && repeated.size() + data.size() < settings_.max_len; ++i) repeated += chunk;
  data.insert(at, repeated);
}

// Part of another corpus input: replaces the tail, or is inserted.
void mutator::splice(bytes& data) {
  const bytes& other = corpus_[below(corpus_.size())];
  if (other.empty()) return;
  std::size_t from = below(other.size()), length = 1 + below(other.size() - from);
  if (below(2)) data.resize(below(data.size() + 1));
  data.insert(below(data.size() + 1), other.substr(from, length));
}

void mutator::put_token(bytes& data, bool overwrite) {
  if (settings_.dictionary.empty()) return insert_bytes(data);
  const bytes& token = settings_.dictionary[below(settings_.dictionary.size())];
  std::size_t at = below(data.size() + 1);
  if (overwrite) data.erase(at, token.size());
  data.insert(at, token);
}

// A run of digits (with its sign, fraction and exponent) replaced by an interesting number.
void mutator::replace_number(bytes& data) {
  const char* number = interesting_numbers[below(std::size(interesting_numbers))];
  std::size_t start = data.empty() ? 0 : below(data.size());
  std::size_t digit = data.find_first_of("0123456789", start);
  if (digit == bytes::npos) {
    data.insert(start, number);
    return;
  }
  std::size_t end = data.find_first_not_of("0123456789.eE+-", digit);
  if (end == bytes::npos) end = data.size();
  if (digit > 0 && data[digit - 1] == '-') --digit;
  data.replace(digit, end - digit, number);
}

}  // namespace sadsl::fuzz
