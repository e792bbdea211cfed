// Loop handles and their automatic names.
#include <cctype>
#include <fstream>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "sadsl/dsl/affine.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace {

// Source lines of the user's files, read once each (a declaration `loop i(N)` names its loop "i").
const std::vector<std::string>* source_lines(const std::string& file) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<std::string>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(file);
  if (it == cache.end()) {
    std::vector<std::string> lines;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    it = cache.emplace(file, std::move(lines)).first;
  }
  return it->second.empty() ? nullptr : &it->second;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The declared variable's name at a source location. g++ reports the column of the closing
// parenthesis of `i(N)`; other compilers may point at the name itself. Both are handled.
std::string declared_name(const std::source_location& where) {
  const auto* lines = source_lines(where.file_name());
  if (!lines || where.line() == 0 || where.line() > lines->size()) return {};
  const std::string& line = (*lines)[where.line() - 1];
  long pos = static_cast<long>(where.column()) - 1;
  if (pos < 0 || pos >= static_cast<long>(line.size())) return {};
  if (line[pos] == ')' || line[pos] == '}') {
    char close = line[pos], open = close == ')' ? '(' : '{';
    for (int depth = 0; pos >= 0; --pos) {
      if (line[pos] == close) ++depth;
      if (line[pos] == open && --depth == 0) break;
    }
    --pos;
    while (pos >= 0 && line[pos] == ' ') --pos;
  }
  if (pos < 0 || !is_ident(line[pos])) return {};
  long end = pos;
  while (end + 1 < static_cast<long>(line.size()) && is_ident(line[end + 1])) ++end;
  while (pos > 0 && is_ident(line[pos - 1])) --pos;
  // Only a declarator `name(...)` or `name{...}` counts (a source edited after compilation does not).
  size_t next = line.find_first_not_of(' ', end + 1);
  if (next == std::string::npos || (line[next] != '(' && line[next] != '{')) return {};
  std::string name = line.substr(pos, end - pos + 1);
  if (std::isdigit(static_cast<unsigned char>(name[0])) || name == "loop") return {};
  return name;
}

std::string fallback_name(const affine& extent, uint64_t seq) {
  if (extent.is_affine() && extent.constant() == 0 && extent.terms().size() == 1 &&
      extent.terms()[0].coefficient == 1) {
    std::string n = extent.terms()[0].symbol->name;
    for (auto& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return n;
  }
  return fmt::format("l{}", seq);
}

void check_bound(const std::string& loop_name, const char* which, const affine& bound,
                 const std::source_location& where) {
  if (!bound.is_affine())
    throw error(fmt::format("{} bound of loop \"{}\" is not affine: {}", which, loop_name, bound.nonaffine_text()),
                where);
}

}  // namespace

loop::loop(const affine& extent, std::source_location where) : loop(std::string(), 0, extent, where) {}

loop::loop(std::string name, const affine& extent, std::source_location where)
    : loop(std::move(name), 0, extent, where) {}

loop::loop(std::string name, const affine& lo, const affine& hi, std::source_location where) {
  auto n = std::make_shared<detail::symbol_node>();
  n->kind = detail::symbol_kind::loop;
  n->seq = detail::next_symbol_seq();
  n->where = where;
  if (name.empty()) name = declared_name(where);
  if (name.empty()) name = fallback_name(hi - lo, n->seq);
  n->name = std::move(name);
  check_bound(n->name, "lower", lo, where);
  check_bound(n->name, "upper", hi, where);
  n->lo = lo;
  n->hi = hi;
  // A loop belongs to the kernel of the params and loops its bounds use.
  for (const affine* b : {&lo, &hi}) {
    for (const auto& t : b->terms()) {
      if (t.symbol->kernel_id < 0) continue;
      if (n->kernel_id >= 0 && n->kernel_id != t.symbol->kernel_id)
        throw error(fmt::format("bounds of loop \"{}\" mix kernels \"{}\" and \"{}\"", n->name, n->kernel_name,
                                t.symbol->kernel_name),
                    where);
      n->kernel_id = t.symbol->kernel_id;
      n->kernel_name = t.symbol->kernel_name;
    }
  }
  node_ = std::move(n);
}

const std::string& loop::name() const { return node_->name; }
const affine& loop::lo() const { return node_->lo; }
const affine& loop::hi() const { return node_->hi; }
loop_id loop::id() const { return node_->loop_identity(); }

}  // namespace sadsl
