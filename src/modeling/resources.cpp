// Resources counted from a concrete architecture (the numbers the model must equal) and the
// per-operation DSP table.
#include <algorithm>
#include <set>

#include "resources.hpp"
#include "sadsl/error.hpp"
#include "sadsl/modeling/performance_model.hpp"
#include "sadsl/poly/operations.hpp"
#include "sadsl/poly/program.hpp"

namespace sadsl {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

void add_dsp(const expr_node& n, int& total) {
  total += dsp_per_operation(n.op, n.type);
  for (const auto& a : n.args) add_dsp(*a, total);
}

}  // namespace

int bits_of(elem_type t) {
  switch (t) {
    case elem_type::i8: case elem_type::u8: return 8;
    case elem_type::i16: case elem_type::u16: return 16;
    case elem_type::f64: return 64;
    default: return 32;
  }
}

// Floating point: Xilinx Floating-Point Operator (PG060), UltraScale DSP48E2, full DSP usage —
// the implementations Vitis HLS picks by default (fp32 multiply-add 5, as Odyssey's model).
// Integers: one DSP48E2 multiplies 27 x 18 bits, so up to 16-bit operands take one and 32-bit
// operands three; adders, comparators and casts are fabric.
int dsp_per_operation(expr_op op, elem_type t) {
  bool mul = op == expr_op::mul, add = op == expr_op::add || op == expr_op::sub;
  if (t == elem_type::f32) return mul ? 3 : add ? 2 : 0;
  if (t == elem_type::f64) return mul ? 10 : add ? 3 : 0;
  if (!mul) return 0;
  return bits_of(t) <= 16 ? 1 : 3;
}

int64_t statement_dsp(const statement_info& s) {
  int total = 0;
  add_dsp(*s.record->value().node(), total);
  return total;
}

double operations_per_dsp(const program& p) {
  int64_t operations = 0, dsp = 0;
  for (const auto& s : p.statements()) {
    int64_t d = statement_dsp(s);
    if (d == 0) continue;
    dsp += d;
    operations += operations_per_instance(s);
  }
  return dsp > 0 ? static_cast<double>(operations) / static_cast<double>(dsp) : 0.0;
}

int64_t buffer_bram18k(const buffer& b) {
  if (b.memory != memory_kind::bram) return 0;
  return ceil_div(bits_of(b.element) * b.banks, 36) * ceil_div(ceil_div(b.size(), b.banks), 512);
}

int64_t buffer_uram(const buffer& b) {
  if (b.memory != memory_kind::uram) return 0;
  return ceil_div(bits_of(b.element) * b.banks, 72) * ceil_div(ceil_div(b.size(), b.banks), 4096);
}

resource_counts count_resources(const architecture& a) {
  resource_counts out;
  const program& p = *a.design->band->source;
  std::set<int> statements;  // those the PE computes
  for (const auto& part : a.pe().parts)
    for (const auto& block : part.blocks)
      for (const auto& op : block.ops)
        if (op.what == operation::kind::compute && block.statement_index >= 0) statements.insert(block.statement_index);
  int64_t per_lane = 0;
  for (int s : statements) per_lane += statement_dsp(p.statements().at(static_cast<size_t>(s)));
  int64_t simd = a.design->simd ? a.point.factors.at({*a.design->simd, tile_level::simd}) : 1;
  out.dsp = a.pe_count() * simd * per_lane;
  for (const auto& k : a.modules)
    for (const auto& b : k.buffers) {
      int64_t copies = (b.double_buffered ? 2 : 1) * static_cast<int64_t>(k.instances.size());
      out.bram18k += copies * buffer_bram18k(b);
      out.uram += copies * buffer_uram(b);
    }
  return out;
}

}  // namespace sadsl
