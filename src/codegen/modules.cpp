// Module kinds as HLS functions: a static function per part (its loop nest printed from the part's
// program, each call's operations as C), and the module function that runs the parts tile
// by tile over the kernel's tile loops, with ping-pong copies of double-buffered buffers.
#include <map>

#include <fmt/format.h>

#include "c_values.hpp"
#include "generate.hpp"
#include "sadsl/error.hpp"

namespace sadsl::codegen_detail {

namespace {

using reg_key = std::pair<int, int>;  // statement index (-1: I/O), slot

struct reg_info {
  elem_type element = elem_type::f32;
  int64_t lanes = 1;
};

std::string reg_name(const reg_key& r) {
  return r.first < 0 ? fmt::format("r_{}", r.second) : fmt::format("r{}_{}", r.first, r.second);
}

std::string join(const std::vector<std::string>& parts) { return fmt::format("{}", fmt::join(parts, ", ")); }

std::string dims(const std::vector<int64_t>& extents) {
  std::string s;
  for (int64_t e : extents) s += fmt::format("[{}]", e);
  return s;
}

class module_printer {
public:
  module_printer(const architecture& a, const module_kind& k) : a_(a), k_(k) {
    const design& d = *a.design;
    simd_ = d.simd ? a.point.factors.at({*d.simd, tile_level::simd}) : 1;
    for (const auto& part : k.parts) double_buffered_ = double_buffered_ || part.previous_tile;
  }

  void write(c_writer& out) {
    for (const auto& part : k_.parts) write_part(part, out);
    write_module(out);
  }

private:
  const program& source() const { return *a_.design->band->source; }

  elem_type dram_element() const {
    for (const auto& l : a_.layouts)
      if (l.tensor == k_.dram->tensor) return l.element;
    SADSL_INTERNAL_ASSERT(false, "codegen: no DRAM layout for " + k_.dram->tensor.name());
  }

  std::string stream(const operation& op) const { return "s_" + k_.ports.at(static_cast<size_t>(op.port)).name; }

  // The element a register holds, and how many lanes its word needs for this operation.
  reg_info register_use(const op_block& b, const operation& op) const {
    using k = operation::kind;
    switch (op.what) {
      case k::read_port:
      case k::write_port: {
        const port& p = k_.ports.at(static_cast<size_t>(op.port));
        return {p.element, std::max(op.lanes, p.lanes)};
      }
      case k::read_local:
      case k::write_local: return {k_.buffers.at(static_cast<size_t>(op.buffer)).element, op.lanes};
      case k::read_dram:
      case k::write_dram: return {dram_element(), op.lanes};
      case k::copy_register:  // the read's element, as the register it copies holds it
        return {source().statements().at(static_cast<size_t>(b.statement_index)).reads.at(static_cast<size_t>(op.slot)).tensor->type, 1};
      case k::compute: break;
    }
    return {source().statements().at(static_cast<size_t>(b.statement_index)).record->lhs->type, 1};
  }

  std::map<reg_key, reg_info> registers(const module_part& part) const {
    std::map<reg_key, reg_info> regs;
    for (const auto& b : part.blocks)
      for (const auto& op : b.ops) {
        reg_info use = register_use(b, op);
        auto [it, fresh] = regs.emplace(reg_key{b.statement_index, op.slot}, use);
        if (!fresh) it->second.lanes = std::max(it->second.lanes, use.lanes);
      }
    return regs;
  }

  // Parameters of a part function: tile and module coordinates, DRAM, streams, buffers.
  std::string part_parameters() const {
    std::vector<std::string> ps;
    for (size_t j = 0; j < a_.design->tile_order.size(); ++j) ps.push_back(fmt::format("int t{}", j));
    for (size_t i = 0; i < k_.index_dims.size(); ++i) ps.push_back(fmt::format("int p{}", i));
    common_parameters(ps);
    for (const auto& b : k_.buffers) ps.push_back(fmt::format("{} {}{}", c_type(b.element), b.name, dims(b.extents)));
    return join(ps);
  }

  void common_parameters(std::vector<std::string>& ps) const {
    if (k_.dram) ps.push_back(fmt::format("{}* dram_{}", c_type(dram_element()), k_.dram->tensor.name()));
    for (const auto& p : k_.ports) ps.push_back(fmt::format("hls::stream<{} >& s_{}", token_type(p.element, p.lanes), p.name));
  }

  std::string part_function(const module_part& part) const { return k_.name + "_" + part.name; }

  void write_part(const module_part& part, c_writer& out) const {
    out.open(fmt::format("static void {}({})", part_function(part), part_parameters()));
    out.line("#pragma HLS INLINE OFF");
    for (const auto& [key, info] : registers(part)) {
      std::string t = c_type(info.element), r = reg_name(key);
      out.line(fmt::format("{} {} = 0;", t, r));
      out.line(fmt::format("{} {}_w[{}] = {{0}};", t, r, info.lanes));
      out.line(fmt::format("#pragma HLS ARRAY_PARTITION variable={}_w complete", r));
    }
    program_callbacks cb;
    cb.call = [&](const program_node& call, c_writer& w) {
      int b = call.block;
      if (b < 0 || static_cast<size_t>(b) >= part.blocks.size()) return;
      const op_block& block = part.blocks[static_cast<size_t>(b)];
      w.line("// " + block.statement);
      for (const auto& op : block.ops) write_op(block, op, w);
    };
    cb.loop_pragmas = [&](const program_node& f) -> std::vector<std::string> {
      switch (classify_loop(part, f)) {  // the timed simulation charges cycles by the same rule
        case loop_kind::unrolled: return {"#pragma HLS UNROLL"};
        case loop_kind::pipelined: return {"#pragma HLS PIPELINE II=1"};
        case loop_kind::sequential: break;
      }
      return {};
    };
    print_program(part.program, cb, out);
    out.close();
    out.blank();
  }

  void write_op(const op_block& b, const operation& op, c_writer& out) const {
    if (op.when) out.open(fmt::format("if ({})", c_expr(*op.when)));
    std::string r = reg_name({b.statement_index, op.slot}), w = r + "_w";
    std::string lane = op.lane ? c_expr(*op.lane) : "0";
    std::string at = op.vector && op.lanes > 1 ? lane : "0";
    using k = operation::kind;
    switch (op.what) {
      case k::read_port:
        if (op.vector) out.open(fmt::format("if ({} == 0)", lane));
        unpack(op, w, out);
        if (op.vector) out.close();
        out.line(fmt::format("{} = {}[{}];", r, w, at));
        break;
      case k::write_port:
        if (b.statement_index >= 0) out.line(fmt::format("{}[{}] = {};", w, at, r));
        if (op.vector) out.open(fmt::format("if ({} == {})", lane, simd_ - 1));
        pack(op, w, out);
        if (op.vector) out.close();
        break;
      case k::read_local:
        lanes_loop(op.lanes, fmt::format("{}[l] = {};", w, buffer_at(op)), out);
        out.line(fmt::format("{} = {}[0];", r, w));
        break;
      case k::write_local:
        if (b.statement_index >= 0) out.line(fmt::format("{}[0] = {};", w, r));
        lanes_loop(op.lanes, fmt::format("{} = {}[l];", buffer_at(op), w), out);
        break;
      case k::read_dram: lanes_loop(op.lanes, fmt::format("{}[l] = {};", w, dram_at(op)), out); break;
      case k::write_dram: lanes_loop(op.lanes, fmt::format("{} = {}[l];", dram_at(op), w), out); break;
      case k::copy_register: out.line(fmt::format("{} = {};", r, reg_name({op.from_statement, op.from_slot}))); break;
      case k::compute: out.line(fmt::format("{} = {};", r, compute(b, op))); break;
    }
    if (op.when) out.close();
  }

  std::string compute(const op_block& b, const operation& op) const {
    const statement_record& s = *source().statements().at(static_cast<size_t>(b.statement_index)).record;
    expr value = s.value();
    int reads = op.slot;
    return c_value(*value.node(), s.lhs->type, [&](const expr_node&, int n) {
      SADSL_INTERNAL_ASSERT(n < reads, "codegen: a statement reads more values than its block holds");
      return reg_name({b.statement_index, n});
    });
  }

  static void lanes_loop(int64_t lanes, const std::string& body, c_writer& out) {
    if (lanes == 1) {
      std::string one = body;
      for (size_t at; (at = one.find("[l]")) != std::string::npos;) one.replace(at, 3, "[0]");
      for (size_t at; (at = one.find(" + l]")) != std::string::npos;) one.erase(at, 4);  // " + l]" -> "]"
      out.line(one);
      return;
    }
    out.open(fmt::format("for (int l = 0; l < {}; ++l)", lanes));
    out.line("#pragma HLS UNROLL");
    out.line(body);
    out.close();
  }

  std::string buffer_at(const operation& op) const {
    const buffer& b = k_.buffers.at(static_cast<size_t>(op.buffer));
    std::string s = b.name;
    for (size_t i = 0; i < op.index.size(); ++i)
      s += fmt::format("[{}{}]", c_expr(op.index[i]), i + 1 == op.index.size() ? " + l" : "");
    return s;
  }

  std::string dram_at(const operation& op) const {
    const host_layout* layout = nullptr;
    for (const auto& l : a_.layouts)
      if (l.tensor == k_.dram->tensor) layout = &l;
    std::string lin;
    for (size_t i = 0; i < op.index.size(); ++i)
      lin = i == 0 ? c_expr(op.index[i]) : fmt::format("({}) * {} + {}", lin, layout->extents[i], c_expr(op.index[i]));
    return fmt::format("dram_{}[{} + l]", k_.dram->tensor.name(), lin);
  }

  void unpack(const operation& op, const std::string& w, c_writer& out) const {
    const port& p = k_.ports.at(static_cast<size_t>(op.port));
    std::string s = stream(op);
    if (p.lanes == 1) {
      out.line(fmt::format("{}[0] = {}.read();", w, s));
      return;
    }
    int bits = 8 * type_size(p.element);
    out.open("");
    out.line(fmt::format("{} tok = {}.read();", token_type(p.element, p.lanes), s));
    lanes_loop(p.lanes,
               fmt::format("{}[l] = sadsl_{}_from_bits(tok.range({} * l + {}, {} * l).to_uint64());", w,
                           c_type(p.element), bits, bits - 1, bits),
               out);
    out.close();
  }

  void pack(const operation& op, const std::string& w, c_writer& out) const {
    const port& p = k_.ports.at(static_cast<size_t>(op.port));
    std::string s = stream(op);
    if (p.lanes == 1) {
      out.line(fmt::format("{}.write({}[0]);", s, w));
      return;
    }
    int bits = 8 * type_size(p.element);
    out.open("");
    out.line(fmt::format("{} tok;", token_type(p.element, p.lanes)));
    lanes_loop(p.lanes, fmt::format("tok.range({} * l + {}, {} * l) = sadsl_bits({}[l]);", bits, bits - 1, bits, w), out);
    out.line(fmt::format("{}.write(tok);", s));
    out.close();
  }

  // The module function: buffers, then the tile loops calling the parts.
  void write_module(c_writer& out) const {
    std::vector<std::string> ps;
    for (size_t i = 0; i < k_.index_dims.size(); ++i) ps.push_back(fmt::format("int p{}", i));
    for (size_t j : a_.phase_loops) ps.push_back(fmt::format("int t{}", j));
    common_parameters(ps);
    out.open(fmt::format("void {}({})", k_.name, join(ps)));
    out.line("#pragma HLS INLINE OFF");
    for (const auto& b : k_.buffers) declare_buffer(b, out);
    size_t tiles = a_.design->tile_order.size();
    if (double_buffered_) {
      out.line("int tile_count = 0;");
      for (size_t j = 0; j < tiles; ++j) out.line(fmt::format("int prev_{} = 0;", j));
    }
    program_callbacks cb;
    cb.loop_pragmas = [](const program_node&) { return std::vector<std::string>{}; };
    cb.call = [&](const program_node& call, c_writer& w) { write_tile(call, w); };
    print_program(a_.tiles, cb, out);
    if (double_buffered_) {
      out.open("if (tile_count > 0)");
      call_parts(true, "prev_", "(tile_count - 1) % 2", out);
      out.close();
    }
    out.close();
    out.blank();
  }

  void declare_buffer(const buffer& b, c_writer& out) const {
    std::vector<std::string> copies = b.double_buffered ? std::vector<std::string>{b.name + "_ping", b.name + "_pong"}
                                                        : std::vector<std::string>{b.name};
    for (const auto& c : copies) {
      out.line(fmt::format("{} {}{};", c_type(b.element), c, dims(b.extents)));
      if (b.memory == memory_kind::registers) {
        out.line(fmt::format("#pragma HLS ARRAY_PARTITION variable={} complete dim=0", c));
        continue;
      }
      if (b.banks > 1)
        out.line(fmt::format("#pragma HLS ARRAY_PARTITION variable={} cyclic factor={} dim={}", c, b.banks, b.extents.size()));
      out.line(fmt::format("#pragma HLS BIND_STORAGE variable={} type=ram_2p impl={}", c,
                           b.memory == memory_kind::uram ? "uram" : "bram"));
    }
  }

  void write_tile(const program_node& tile, c_writer& out) const {
    const isl::ast_expr& call = *tile.call;
    int n = isl_ast_expr_op_get_n_arg(call.get());
    out.open("");
    for (int i = 1; i < n; ++i)
      out.line(fmt::format("int tile_{} = {};", i - 1, c_expr(isl::manage(isl_ast_expr_op_get_arg(call.get(), i)))));
    call_parts(false, "tile_", double_buffered_ ? "tile_count % 2" : "0", out);
    if (double_buffered_) {
      out.open("if (tile_count > 0)");
      call_parts(true, "prev_", "(tile_count - 1) % 2", out);
      out.close();
      for (int i = 1; i < n; ++i) out.line(fmt::format("prev_{} = tile_{};", i - 1, i - 1));
      out.line("tile_count++;");
    }
    out.close();
  }

  // Calls the parts that run one tile behind (previous) or not, with the copy `copy` selects.
  void call_parts(bool previous, const std::string& tile, const std::string& copy, c_writer& out) const {
    bool any_double = false;
    for (const auto& b : k_.buffers) any_double = any_double || b.double_buffered;
    for (const auto& part : k_.parts) {
      if (part.previous_tile != previous) continue;
      if (!any_double) {
        out.line(call(part, tile, ""));
        continue;
      }
      out.open(fmt::format("if ({} == 0)", copy));
      out.line(call(part, tile, "_ping"));
      out.close();
      out.open("else");
      out.line(call(part, tile, "_pong"));
      out.close();
    }
  }

  std::string call(const module_part& part, const std::string& tile, const std::string& copy) const {
    std::vector<std::string> args;
    for (size_t j = 0; j < a_.design->tile_order.size(); ++j) args.push_back(tile + std::to_string(j));
    for (size_t i = 0; i < k_.index_dims.size(); ++i) args.push_back(fmt::format("p{}", i));
    if (k_.dram) args.push_back("dram_" + k_.dram->tensor.name());
    for (const auto& p : k_.ports) args.push_back("s_" + p.name);
    for (const auto& b : k_.buffers) args.push_back(b.name + (b.double_buffered ? copy : ""));
    return fmt::format("{}({});", part_function(part), join(args));
  }

  const architecture& a_;
  const module_kind& k_;
  int64_t simd_ = 1;
  bool double_buffered_ = false;
};

}  // namespace

std::string token_type(elem_type e, int64_t lanes) {
  return lanes == 1 ? c_type(e) : fmt::format("ap_uint<{}>", 8 * type_size(e) * lanes);
}

void write_modules(const architecture& a, c_writer& out) {
  for (const auto& k : a.modules) module_printer(a, k).write(out);
}

}  // namespace sadsl::codegen_detail
