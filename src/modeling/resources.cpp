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

// The sum of f over the operations of an expression tree.
int64_t over_operations(const expr_node& n, int (*f)(expr_op, elem_type)) {
  int64_t total = f(n.op, n.type);
  for (const auto& a : n.args) total += over_operations(*a, f);
  return total;
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

// Flip-flops: the per-operator figures of Lina's UltraScale+ (ZCU102/ZCU104) profile of the HLS
// operator cores (fp32 add at latency 5 with 2 DSPs, multiply at 4 with 3, divide at 16 with
// none; integer division at 36 (32 bits) and 12 (8 bits)); an integer multiply mapped to a
// DSP48E2 keeps its pipeline registers inside the DSP (Xilinx DS255, "25x18, Use Mults": 0 FFs).
int ff_per_operation(expr_op op, elem_type t) {
  bool mul = op == expr_op::mul, add = op == expr_op::add || op == expr_op::sub, div = op == expr_op::div;
  if (t == elem_type::f32) return mul ? 143 : add ? 205 : div ? 761 : 0;
  if (t == elem_type::f64 || !div) return 0;
  return bits_of(t) <= 8 ? 106 : bits_of(t) == 32 ? 394 : 0;
}

int64_t fifo_ff(int64_t bits, int64_t depth) { return bits * depth <= 512 ? 5 : bits + 10; }

int64_t fifo_bram18k(int64_t bits, int64_t depth) {
  return bits * depth <= 1024 ? 0 : ceil_div(bits, 36) * ceil_div(depth, 512);
}

int64_t statement_dsp(const statement_info& s) { return over_operations(*s.record->value().node(), dsp_per_operation); }

int64_t statement_ff(const statement_info& s) { return over_operations(*s.record->value().node(), ff_per_operation); }

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
  int64_t per_lane = 0, ff_per_lane = 0;
  for (int s : statements) {
    per_lane += statement_dsp(p.statements().at(static_cast<size_t>(s)));
    ff_per_lane += statement_ff(p.statements().at(static_cast<size_t>(s)));
  }
  int64_t simd = a.design->simd ? a.point.factors.at({*a.design->simd, tile_level::simd}) : 1;
  out.dsp = a.pe_count() * simd * per_lane;
  out.ff = a.pe_count() * simd * ff_per_lane;
  for (const auto& k : a.modules)
    for (const auto& b : k.buffers) {
      int64_t copies = (b.double_buffered ? 2 : 1) * static_cast<int64_t>(k.instances.size());
      out.bram18k += copies * buffer_bram18k(b);
      out.uram += copies * buffer_uram(b);
      if (b.memory == memory_kind::registers) out.ff += copies * b.size() * bits_of(b.element);
    }
  for (const auto& f : a.fifos) {
    out.ff += fifo_ff(f.lanes * bits_of(f.element), f.depth);
    out.bram18k += fifo_bram18k(f.lanes * bits_of(f.element), f.depth);
  }
  return out;
}

}  // namespace sadsl
