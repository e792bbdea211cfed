#include <isl/ctx.h>
#include <isl/options.h>

#include <atomic>

#include <fmt/format.h>

#include "kernel_state.hpp"
#include "sadsl/error.hpp"

namespace sadsl {

namespace detail {

namespace {

isl_ctx* new_isl_context() {
  isl_ctx* ctx = isl_ctx_alloc();
  // isl reports errors to the C++ bindings as exceptions; no messages on stderr, no abort.
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  return ctx;
}

}  // namespace

kernel_state::kernel_state(std::string n, std::source_location w) : name(std::move(n)), where(w) {
  static std::atomic<int> next_id{0};
  id = next_id++;
  ctx = new_isl_context();
}

// The id stays: the params, loops and tensors record their kernel by id.
kernel_state::kernel_state(const kernel_state& same, new_context)
    : name(same.name), id(same.id), where(same.where), ctx(new_isl_context()), params(same.params),
      tensors(same.tensors), statements(same.statements), names(same.names), loops(same.loops),
      written(same.written) {}

kernel_state::~kernel_state() {
  // No isl object lives in the kernel state itself; programs built from it hold the state alive.
  isl_ctx_free(ctx);
}

void kernel_state::claim_name(const std::string& n, const std::string& what, const std::source_location& w) {
  if (n.empty()) throw error(fmt::format("{} of kernel \"{}\" has an empty name", what, name), w);
  bool ident = (std::isalpha(static_cast<unsigned char>(n[0])) || n[0] == '_') &&
               std::all_of(n.begin(), n.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (!ident) throw error(fmt::format("{} \"{}\": names must be C identifiers", what, n), w);
  auto [it, inserted] = names.emplace(n, fmt::format("{} \"{}\" ({})", what, n, format_location(w)));
  if (!inserted)
    throw error(fmt::format("duplicate name \"{}\" in kernel \"{}\": {} is already declared as {}", n, name,
                            fmt::format("{} \"{}\"", what, n), it->second),
                w);
}

std::vector<scope_entry>& active_scopes() {
  thread_local std::vector<scope_entry> scopes;
  return scopes;
}

}  // namespace detail

std::string_view role_name(tensor_role r) {
  switch (r) {
    case tensor_role::input: return "input";
    case tensor_role::output: return "output";
    case tensor_role::inout: return "inout";
    case tensor_role::local: return "local";
  }
  return "?";
}

kernel::kernel(std::string name, std::source_location where)
    : state_(std::make_shared<detail::kernel_state>(std::move(name), where)) {}

sadsl::param kernel::param(std::string name, int64_t default_value, std::source_location where) {
  state_->claim_name(name, "param", where);
  if (default_value < 1)
    throw error(fmt::format("param \"{}\" has default value {}: problem sizes must be at least 1", name,
                            default_value),
                where);
  auto n = std::make_shared<detail::symbol_node>();
  n->kind = detail::symbol_kind::param;
  n->name = std::move(name);
  n->seq = detail::next_symbol_seq();
  n->where = where;
  n->kernel_id = state_->id;
  n->kernel_name = state_->name;
  n->user_value = default_value;
  state_->params.push_back(n);
  return sadsl::param(n);
}

tensor_ptr kernel::add_tensor(std::string name, elem_type t, tensor_role role, std::vector<affine> extents,
                              std::source_location where) {
  state_->claim_name(name, "tensor", where);
  for (size_t d = 0; d < extents.size(); ++d) {
    const affine& e = extents[d];
    if (!e.is_affine())
      throw error(fmt::format("extent {} of tensor \"{}\" is not affine: {}", d, name, e.nonaffine_text()), where);
    for (const auto& term : e.terms()) {
      if (term.symbol->kind == detail::symbol_kind::loop)
        throw error(fmt::format("extent {} of tensor \"{}\" uses loop \"{}\": extents may use only params", d, name,
                                term.symbol->name),
                    where);
      if (term.symbol->kernel_id != state_->id)
        throw error(fmt::format("extent {} of tensor \"{}\" uses param \"{}\" of kernel \"{}\"", d, name,
                                term.symbol->name, term.symbol->kernel_name),
                    where);
    }
  }
  auto n = std::make_shared<detail::tensor_node>(
      detail::tensor_node{std::move(name), t, role, std::move(extents), where, state_->id, next_identity_key()});
  state_->tensors.push_back(n);
  return n;
}

const std::string& kernel::name() const { return state_->name; }

std::vector<sadsl::param> kernel::params() const {
  std::vector<sadsl::param> out;
  for (const auto& p : state_->params) out.push_back(sadsl::param(p));
  return out;
}

sadsl::param kernel::get_param(const std::string& name) const {
  for (const auto& p : state_->params)
    if (p->name == name) return sadsl::param(p);
  throw error(fmt::format("kernel \"{}\" has no param \"{}\"", state_->name, name));
}

const std::vector<tensor_ptr>& kernel::tensors() const { return state_->tensors; }
const std::vector<statement_record>& kernel::statements() const { return state_->statements; }
std::vector<detail::symbol_ptr> kernel::loops() const { return state_->loops; }
isl_ctx* kernel::ctx() const { return state_->ctx; }

kernel kernel::with_own_context() const {
  return kernel(std::make_shared<detail::kernel_state>(*state_, detail::kernel_state::new_context{}));
}

element_ref::element_ref(std::shared_ptr<detail::kernel_state> k, tensor_ptr t, std::vector<affine> index,
               std::source_location where)
    : kernel_(std::move(k)), tensor_(std::move(t)), index_(std::move(index)), where_(where) {}

element_ref::operator expr() const { return read_of(tensor_, index_, where_); }

void element_ref::record(update_op op, const expr& rhs) const { kernel_->record(tensor_, index_, op, rhs, where_); }
void element_ref::operator=(const expr& rhs) const { record(update_op::assign, rhs); }
void element_ref::operator+=(const expr& rhs) const { record(update_op::add, rhs); }
void element_ref::operator-=(const expr& rhs) const { record(update_op::sub, rhs); }
void element_ref::operator*=(const expr& rhs) const { record(update_op::mul, rhs); }

void if_::check_condition(const condition& c, const std::source_location& where) {
  for (const auto& k : c.constraints())
    if (!k.expr.is_affine())
      throw error(fmt::format("condition \"{}\" is not affine: {}", c.str(), k.expr.nonaffine_text()), where);
}

}  // namespace sadsl
