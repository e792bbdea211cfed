// performance_model: a design's model read off its architecture at a template point (see the
// header), checked against that architecture's own counts before it is returned.
#include "sadsl/modeling/performance_model.hpp"

#include "sadsl/model/tile_counts.hpp"
#include "sadsl/modeling/symbolic_architecture.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "fifo_storage.hpp"
#include "integer_sum.hpp"
#include "latency.hpp"
#include "one_tile_extents.hpp"
#include "part_cost.hpp"
#include "pe_pipeline.hpp"
#include "resources.hpp"
#include "sadsl/comm/fifo_depths.hpp"
#include "sadsl/compute/zero_padding.hpp"
#include "sadsl/error.hpp"
#include "symbols.hpp"
#include "template_point.hpp"
#include "tile_traffic.hpp"
#include "triangular_phases.hpp"

namespace sadsl {

namespace {

// Whether two DSL conditions are the same constraints (an if and its else share one).
bool same_condition(const condition& a, const condition& b) {
  if (a.constraints().size() != b.constraints().size()) return false;
  for (size_t i = 0; i < a.constraints().size(); ++i) {
    const auto &x = a.constraints()[i], &y = b.constraints()[i];
    if (x.equality != y.equality || x.expr.constant() != y.expr.constant() || x.expr.terms().size() != y.expr.terms().size()) return false;
    for (const auto& t : x.expr.terms())
      if (y.expr.coefficient(t.symbol.get()) != t.coefficient) return false;
  }
  return true;
}

// Whether `pack` (a packing: a min of power-of-two divisors) is at most x at every legal point:
// it is pow2_divisor(x, c), at most x for every x >= 1, or a min with such an operand. Then
// max(pack, x) is x, and a buffer's banks (and the quotients by them) are the SIMD factor's.
bool at_most(const model::expr& pack, const model::expr& x) {
  if (pack.kind() == model::op::pow2_divisor) return pack.lhs().same_as(x);
  if (pack.kind() == model::op::min) return at_most(pack.lhs(), x) || at_most(pack.rhs(), x);
  return false;
}

// Whether st reads the tensor it writes (a recurrence: C += ..., C = max(C, ...)).
bool reads_itself(const statement_info& st) {
  return std::any_of(st.reads.begin(), st.reads.end(), [&](const access_info& r) { return r.tensor->id() == st.write.tensor->id(); });
}

using model::expr;
using modeling::symbols;

std::string kind_text(const design& d, const module_kind& k, const module_part& p) {
  return fmt::format("design {}, module {}, part {}", d.name(), k.name, p.name);
}

// The model under construction, and the template architecture it is read from.
class builder {
public:
  builder(const design& d, const modeling_options& o, model::design_model& m, symbolic_architecture& sym)
      : d_(d), o_(o), m_(m), sym_(sym), prog_(*d.band->source), s_(d, m) {}

  void build(const architecture& a, const architecture_point& at) {
    triangular_ = s_.triangular();
    if (triangular_) {
      refuse_outside_triangular(a);
      traffic_ = modeling::tile_traffic_of(a);  // refuses tiles that share a phase
      one_tile_ = modeling::one_tile_templates(d_, at, m_, s_);
    }
    if (a.padding == padding_mode::guarded && !triangular_) {
      zero_padding z = check_zero_padding(d_);
      if (z.valid() || !z.whole_tiles_at_divisors)
        throw error(fmt::format("design {}: its partial tiles are guarded ({}); sadsl models a guarded design only at "
                                "the factors that divide its sizes, and only one whose band loops run over [0, P), bound no "
                                "inner loop and are guarded only at their first or last iteration, which this one is not",
                                d_.name(), z.why_not));
    }
    values_ = model_point(m_, a.point.factors, prog_.kernel());
    guarded_ = a.padding == padding_mode::guarded;
    if (guarded_) add_whole_tiles();
    for (size_t n = 0; n < a.networks.size(); ++n) plan_network(a, n);
    for (size_t j = 0; j < d_.tile_order.size(); ++j) {
      frame_.tiles.push_back(s_.loop(d_.tile_order[j]).tiles);
      frame_.phase.push_back(std::find(a.phase_loops.begin(), a.phase_loops.end(), j) != a.phase_loops.end());
    }
    for (size_t ph = 0; ph < a.phases.size(); ++ph)
      for (auto& t : phase_tiles(a, ph)) tiles_.push_back(std::move(t));
    modeling::integer_sum lut_io, offchip, bram, uram, ff;
    std::vector<modeling::module_timing> timings;
    sym_.design = d_.name();
    for (size_t i = 0; i < d_.space.size(); ++i) sym_.pe_grid.push_back(s_.grid(i));
    for (size_t k = 0; k < a.modules.size(); ++k) {
      const module_kind& kind = a.modules[k];
      expr instances = instance_count(kind);
      check(fmt::format("design {}: instances of module {}", d_.name(), kind.name), instances,
            static_cast<int64_t>(kind.instances.size()));
      if (triangular_) {
        active_kind_.push_back(moves(a, kind));  // its part cycles differ from tile to tile: not measured
      } else {
        timings.push_back(module_timing(a, static_cast<int>(k)));
        // A module that runs in no tile at a point (a reload network when its loop has one tile)
        // is not built there.
        active_kind_.push_back(activity(timings.back().ranges));
      }
      instances = instances * active_kind_.back();
      if (kind.role != module_role::pe) lut_io.add(instances);
      symbolic_module& out = sym_.modules.emplace_back();
      out.name = kind.name;
      out.role = kind.role;
      out.network = kind.network;
      out.level = kind.level;
      out.boundary = kind.boundary;
      out.chain = chain_of(kind);
      out.instances = instances;
      for (const auto& b : kind.buffers) {
        out.buffers.push_back(buffer_of(kind, b));
        if (kind.role == module_role::pe) out.buffers.back().present = carried_presence(b);
        expr copies = instances * expr(b.double_buffered ? 2 : 1) * out.buffers.back().present;
        bram.add(copies, out.buffers.back().bram18k);
        uram.add(copies, out.buffers.back().uram);  // none where no buffer can be URAM
        ff.add(copies, out.buffers.back().register_bits);
      }
      if (kind.dram && !triangular_) add_port_bytes(a.networks.at(static_cast<size_t>(kind.network)).tensor, kind);
    }
    for (size_t k = 0; k < a.modules.size(); ++k) add_ports(a, k);
    for (const auto& m : sym_.modules) {  // after add_ports, which may add dummies
      sym_.fifos = sym_.fifos + m.fifos_in;
      for (const auto& q : m.ports)
        if (q.input) ff.add(m.instances * q.present, fifo_ff_of(q.lanes * expr(static_cast<double>(bits_of(q.element)))));
    }
    if (triangular_) add_triangular_phases(a);
    for (const auto& port : m_.dram_ports) offchip.add(port.bytes);
    if (!triangular_) compose_rectangular_latency(a, timings, bram, ff);
    int64_t per_lane = 0, ff_per_lane = 0;
    for (const auto& st : prog_.statements()) {
      per_lane += statement_dsp(st);
      ff_per_lane += statement_ff(st);
    }
    m_.dsp = s_.pe_count() * s_.simd() * expr(static_cast<double>(per_lane));
    // An estimate of its parts that have figures (docs/modeling.md, "Resources"): operators,
    // FIFOs, register buffers; not the modules' control logic.
    m_.ff = s_.pe_count() * s_.simd() * expr(static_cast<double>(ff_per_lane)) + ff.total();
    m_.bram18k = bram.total();
    m_.uram = uram.total();
    m_.offchip_bytes = offchip.total();
    // A rough LUT estimate, as in the imported models (Odyssey has none): lanes, PE control, I/O modules.
    m_.lut = s_.pe_count() * s_.simd() * expr(350) + s_.pe_count() * expr(200) + lut_io.total() * expr(300);
    add_constraints();
    add_shared_padding();
    add_reduction_grids(a);
  }

private:
  // A triangular design (symbols::triangular) is modeled by the phases of its tiles: it must run
  // its partial tiles guarded (a padded triangle would run the padding's instances too), at a
  // DRAM port that moves a word a cycle (the composition's pace), with no partial-sum chain (its
  // FIFOs deepened: comm/fifo_depths.hpp).
  void refuse_outside_triangular(const architecture& a) const {
    SADSL_INTERNAL_ASSERT(a.padding == padding_mode::guarded, "a triangle's partial tiles cannot be zero-padded");
    if (o_.dram_bytes_per_cycle < 64)
      throw error(fmt::format("design {}: sadsl models a triangular design at a DRAM bandwidth of a 512-bit word a cycle "
                              "or more (64 bytes), not {} bytes a cycle",
                              d_.name(), o_.dram_bytes_per_cycle));
    for (const auto& f : a.fifos)
      if (f.depth != 2)
        throw error(fmt::format("design {}: sadsl models a triangular design whose PEs pass no partial sums; this one "
                                "deepens {} along a partial-sum chain",
                                d_.name(), f.name));
  }

  // 1 where module kind k of a triangular design is built, else 0: a PE always, an I/O module
  // where its network moves some value (LU's U_tmp crosses tiles of j only where j has two or
  // more: its network is built there). Its tensor's traffic in a run, from the tiles' counts
  // (modeling/triangular_phases.hpp), is also its DRAM port's.
  expr moves(const architecture& a, const module_kind& k) {
    if (k.network < 0) return 1;
    if (moved_.empty()) moved_ = modeling::triangular_traffic(a, s_, next_index_);
    const io_network& net = a.networks.at(static_cast<size_t>(k.network));
    for (const auto& m : moved_)
      if (m.tensor == net.tensor && m.input == net.input) return model::min(expr(1), m.values);
    return 0;
  }

  // Its latency, one module of every phase, and its DRAM ports' bytes (modeling/triangular_phases.hpp).
  void add_triangular_phases(const architecture& a) {
    auto pack = [&](const tensor_id& tensor, bool input) {
      for (size_t n = 0; n < a.networks.size(); ++n) {
        if (a.networks[n].tensor != tensor || a.networks[n].input != input) continue;
        for (const auto& k : a.modules)
          if (k.dram && k.network == static_cast<int>(n)) return networks_.at(n).pack;
      }
      SADSL_INTERNAL_ASSERT(false, "a tensor that a tile moves through DRAM has a network with a DRAM module: " + tensor.name());
      return expr(1);
    };
    // A tile of one value along a loop makes phases of a few cycles each, whose fixed costs the
    // composition does not count (LU's [k] at k_t1 = 24, j_t1 = i_t1 = 1: half the cycles).
    for (const auto& l : d_.band->loop_ids()) {
      const modeling::loop_terms& t = s_.loop(l);
      m_.constraints.push_back({model::constraint::kind::at_least, t.t1, expr(2),
                                fmt::format("two or more values of {} a tile (a triangular design)", l.name())});
    }
    expr latency = modeling::triangular_latency(a, s_, pack, next_index_);
    m_.modules = {{"phases", model::module_role::compute, model::make_leaf(latency), std::nullopt, std::nullopt}};
    for (const auto& m : moved_) {
      auto layout = std::find_if(a.layouts.begin(), a.layouts.end(), [&](const host_layout& h) { return h.tensor == m.tensor; });
      SADSL_INTERNAL_ASSERT(layout != a.layouts.end(), "a tensor that moves through DRAM has an array there: " + m.tensor.name());
      expr bytes = m.values * expr(static_cast<double>(type_size(layout->element)));
      auto port = std::find_if(m_.dram_ports.begin(), m_.dram_ports.end(), [&](const model::dram_port& p) { return p.tensor == m.tensor; });
      if (port == m_.dram_ports.end()) m_.dram_ports.push_back({m.tensor, bytes});
      else port->bytes = port->bytes + bytes;
    }
  }

  // A rectangular design's latency: each module's timing per tile composed over the tiles
  // (latency.hpp), and the FIFOs deepened along partial-sum chains (their storage in bram, ff).
  void compose_rectangular_latency(const architecture& a, std::vector<modeling::module_timing>& timings,
                                   modeling::integer_sum& bram, modeling::integer_sum& ff) {
    modeling::pe_frame pe = frame_of_pe(a);
    std::vector<expr> hops = modeling::wavefront_hops(a, s_, pe);
    modeling::fifo_storage deep =
        modeling::deep_fifo_storage(a, s_, sym_.modules, hops, [&](int k) { return tokens_per_tile(a, k); });
    bram.add(deep.bram18k);
    ff.add(deep.ff);
    modeling::single_buffered_drains(a, pe, o_.timing, modeling::full_wavefront(s_, hops), timings);
    frame_.pe_tile = timings.front().step;
    modeling::set_wavefronts(a, s_, hops, timings);
    modeling::staggered_drains(a, s_, timings);
    m_.modules = modeling::compose_latency(frame_, timings);
  }

  struct network_terms {
    std::vector<expr> box;
    expr pack = 1;
    expr inverse_pack = 1;   // 1 / pack, exact (symbols::pack_and_inverse)
    expr pack_template = 1;  // the template is built with packing 1, so that no word loop degenerates
    elem_type element = elem_type::f32;
    std::vector<int> cluster_order;
    int buffered_level = 1;
  };

  // The words a top-level module moves in a run (its transfer part's words per tile, in every
  // tile it runs in) go to the DRAM port of its tensor.
  void add_port_bytes(const tensor_id& tensor, const module_kind& kind) {
    expr bytes = active_ * words_ * network(kind).pack * expr(type_size(network(kind).element));
    auto port = std::find_if(m_.dram_ports.begin(), m_.dram_ports.end(), [&](const model::dram_port& p) { return p.tensor == tensor; });
    if (port == m_.dram_ports.end()) m_.dram_ports.push_back({tensor, bytes});
    else port->bytes = port->bytes + bytes;
  }

  const network_terms& network(const module_kind& k) const { return networks_.at(static_cast<size_t>(k.network)); }

  void plan_network(const architecture& a, size_t n) {
    const io_network& net = a.networks[n];
    std::vector<access_ref> accesses;
    for (const auto& st : prog_.statements()) {
      if (!net.input && st.write.tensor->id() == net.tensor) accesses.push_back({st.id, -1});
      for (size_t r = 0; net.input && r < st.reads.size(); ++r)
        if (st.reads[r].tensor->id() == net.tensor) accesses.push_back({st.id, static_cast<int>(r)});
    }
    network_terms t;
    t.element = accesses.empty() ? elem_type::f32 : prog_.statement(accesses.front().statement).access(accesses.front()).tensor->type;
    t.box = s_.box(accesses);
    const std::vector<expr> spans = t.box;
    if (triangular_) {
      slice_boxes(a, n, t.box);
      one_tile_boxes(net, spans, t.box);  // before the packing, which divides the last extent
    }
    // A guarded architecture packs a network whose chunks are whole boxes, which they are at
    // every point the model covers (whole tiles, builder::add_whole_tiles) when they are at the
    // template, and whose buffer is registers (register_buffer_elements or fewer:
    // comm/networks.cpp); else it moves one element a word.
    const bool packs = net.whole_boxes;
    std::vector<expr> offsets;
    if (packs) {
      offsets = s_.pack_offsets(accesses, t.box.back());
      std::tie(t.pack, t.inverse_pack) = symbols::pack_and_inverse(offsets, bits_of(t.element));
      if (guarded_) {
        expr elements = 1;
        for (const auto& e : t.box) elements = elements * e;
        // 1 where the chunk fits registers (register_buffer_elements), else 0, and the other way
        // round: no difference and no division by either, which the exact search could not bound.
        const expr most = static_cast<double>(register_buffer_elements);
        expr registers = model::min(expr(1), model::floor_div(most, elements));
        expr block_ram = model::min(expr(1), model::floor_div(elements, most + expr(1)));
        t.pack = model::max(expr(1), t.pack * registers);
        t.inverse_pack = model::max(t.inverse_pack, block_ram);
      }
      if (triangular_ && crosses_bounding_tiles(net)) {
        // A triangular design's chunks that move at a tile of a bounding loop past its first
        // (LU's V, from one tile of k to the next) are whole boxes where the template's are and
        // the tiles are aligned (symbols::tiles_aligned); elsewhere one element a word.
        expr aligned = s_.tiles_aligned();
        t.pack = model::max(expr(1), t.pack * aligned);
        t.inverse_pack = model::max(t.inverse_pack, expr(1) - aligned);
      }
    }
    t.cluster_order = net.cluster_order;
    t.buffered_level = net.buffered_level;
    for (const auto& k : a.modules)
      if (k.network == static_cast<int>(n) && k.buffered)
        for (size_t dim = 0; dim < t.box.size(); ++dim)
          check(fmt::format("design {}: extent {} of buffer {} of module {}", d_.name(), dim, k.buffers.at(0).name, k.name),
                t.box[dim], k.buffers.at(0).extents.at(dim));
    sym_.networks.push_back({net.name, net.tensor, net.kind, net.input, t.element, t.box, t.pack, offsets,
                             packs ? dram_word_bits / bits_of(t.element) : 1, packs && guarded_});
    networks_.push_back(std::move(t));
  }

  // A triangular design's buffer holds, of the box its accesses span in a tile, what crosses the
  // tile's boundary or what a guard selects: along such a dim a network's chunk is one value thick
  // (LU's U_tmp: the column before the tile's first j; U: the row j == k), and a PE keeps one
  // value fewer than the span where the last one leaves the tile (LU's [j] keeps V of all but
  // the tile's last k: none at t_k = 1). Which one is read off the template's extent (its
  // factors are 8, so the three differ) and checked with the others.
  expr sliced(const expr& span, int64_t at_template) const {
    const double v = model::evaluate(span, values_);
    if (!triangular_ || v == static_cast<double>(at_template)) return span;
    if (at_template == 1) return 1;
    if (v - 1 == static_cast<double>(at_template)) return span - expr(1);
    return span;  // the check that follows says what the model lacks
  }

  // Whether network net moves values at a tile past the first of a loop that bounds another.
  bool crosses_bounding_tiles(const io_network& net) const {
    for (const auto& t : *traffic_)  // read in build()
      if (t.tensor == net.tensor && t.input == net.input)
        for (size_t x : s_.bounding_loops())
          if (modeling::moves_past_first_tile(*d_.band, t, x)) return true;
    return false;
  }

  // Network net's box where a loop has one tile (one_tile_extents.hpp): its buffered modules'.
  void one_tile_boxes(const io_network& net, const std::vector<expr>& spans, std::vector<expr>& box) const {
    for (size_t dim = 0; dim < box.size(); ++dim)
      box[dim] = modeling::one_tile_extent(s_, one_tile_, box[dim], spans[dim],
                                           [&](const architecture& a) { return modeling::network_extent(a, net, dim); },
                                           fmt::format("design {}: extent {} of the buffers of network {}", d_.name(), dim, net.name));
  }

  void slice_boxes(const architecture& a, size_t n, std::vector<expr>& box) const {
    for (const auto& k : a.modules) {
      if (k.network != static_cast<int>(n) || !k.buffered) continue;
      const std::vector<int64_t>& extents = k.buffers.at(0).extents;
      for (size_t dim = 0; dim < box.size() && dim < extents.size(); ++dim) box[dim] = sliced(box[dim], extents[dim]);
      return;
    }
  }

  expr instance_count(const module_kind& k) const {
    if (k.role == module_role::pe) return s_.pe_count();
    expr n = 1;
    for (size_t i = 0; i < k.index_dims.size(); ++i) {
      expr g = s_.grid(static_cast<size_t>(k.index_dims[i]));
      if (k.role == module_role::dummy_source || k.role == module_role::dummy_sink) {
        // Dummies close the chain ends: one coordinate along the chain (every template grid dim
        // has two or more PEs, so the edge is the dim where all instances agree).
        std::set<int64_t> values;
        for (const auto& c : k.instances) values.insert(c[i]);
        n = n * (values.size() == 1 ? expr(1) : g);
        continue;
      }
      bool chain = i == 0 && !k.dram;
      n = n * (chain ? (k.boundary ? expr(1) : g - expr(1)) : g);
    }
    return n;
  }

  // 1 where a module that runs in `ranges` of the tiles runs in some tile, else 0: every loop has
  // a first and a last tile, so only "all but the first (last)" can be none.
  expr activity(const std::vector<modeling::tile_range>& ranges) const {
    using modeling::tile_range;
    for (auto r : ranges)
      if (r == tile_range::all_but_first || r == tile_range::all_but_last) return model::min(expr(1), modeling::tile_count(frame_, ranges));
    return 1;
  }

  // The ports of module kind k and the FIFOs its instances read: one per input port. A port that
  // only an I/O network serves is there only where that network is built. A PE chain's port that
  // a network feeds at the chain's start (a reload of partial sums), or that sends into one at its
  // end, is always there: where the network is not built, a dummy takes the network's place.
  void add_ports(const architecture& a, size_t k) {
    const module_kind& kind = a.modules[k];
    for (size_t p = 0; p < kind.ports.size(); ++p) {
      const port& q = kind.ports[p];
      std::optional<size_t> io;
      bool chained = false, pe_side = kind.network < 0;
      for (const auto& f : a.fifos) {
        bool here = q.input ? f.consumer_kind == static_cast<int>(k) && f.consumer_port == static_cast<int>(p)
                            : f.producer_kind == static_cast<int>(k) && f.producer_port == static_cast<int>(p);
        if (!here) continue;
        int peer = q.input ? f.producer_kind : f.consumer_kind;
        if (peer == static_cast<int>(k)) chained = true;
        else if (a.modules.at(static_cast<size_t>(peer)).network >= 0) io = static_cast<size_t>(peer);
        else pe_side = true;  // a buffered I/O module's port to or from the PEs
      }
      expr lanes = pe_side ? port_lanes(q) : network(kind).pack;
      if (io && chained && kind.role == module_role::pe) dummy_in_place_of(a, *io, q, lanes);
      expr present = io && !chained && kind.network < 0 ? active_kind_.at(*io) : expr(1);
      symbolic_module& out = sym_.modules[k];  // after dummy_in_place_of, which may add a module
      out.ports.push_back({q.name, q.input, q.element, lanes, q.tensor, present});
      if (q.input) out.fifos_in = out.fifos_in + out.instances * present;
    }
  }

  // The tokens per tile of input module kind k's PE-side part (comm's tokens_per_tile: its
  // cycles at II 1 without pipeline depth), checked at the template.
  expr tokens_per_tile(const architecture& a, int k) {
    const module_kind& kind = a.modules.at(static_cast<size_t>(k));
    const pipeline_timing one_per_cycle{1, 0};
    std::optional<expr> most;
    for (const auto& part : kind.parts) {
      if (part.iterates != module_part::iteration::pe_frame) continue;
      expr t = modeling::part_cost(part, part_dims(kind, part, false), one_per_cycle);
      most = most ? model::max(*most, t) : t;
    }
    SADSL_INTERNAL_ASSERT(most.has_value(), "an input module that feeds the PEs has a part over the PE's frame");
    check(fmt::format("design {}, module {}: tokens per tile", d_.name(), kind.name), *most, sadsl::tokens_per_tile(a, k));
    return *most;
  }

  // fifo_ff for a FIFO of the default depth 2 (every FIFO's today) and tokens of `bits`: 5
  // control FFs up to 256 bits, bits + 10 above.
  static expr fifo_ff_of(const expr& bits) {
    expr wide = model::min(expr(1), model::max(expr(0), bits - expr(256)));
    return expr(5) + wide * (bits + expr(5));
  }

  // Elements per token of a port on the PEs' side (the PEs', the dummies' and the buffered I/O
  // modules' ports to or from the PEs; the others move words of the network's packing): the SIMD
  // lanes where the PEs move vectors. The template is built with two or more SIMD lanes, so
  // lanes above 1 there are SIMD.
  expr port_lanes(const port& q) const { return q.lanes > 1 ? s_.simd() : expr(1); }

  // Where I/O module kind io (the start or the end of a PE chain of `tensor`) is not built, a
  // dummy source feeds each first PE of the chain, or a dummy sink takes what each last PE sends
  // (LU's V at one tile of k: no later tile reads it).
  void dummy_in_place_of(const architecture& a, size_t io, const port& pe_port, const expr& lanes) {
    const tensor_id& tensor = pe_port.tensor;
    const io_network& net = a.networks.at(static_cast<size_t>(a.modules[io].network));
    SADSL_INTERNAL_ASSERT(net.along.has_value(), "a PE chain fed by an interior network: " + net.name);
    expr instances = expr(1) - active_kind_.at(io);
    if (instances.is_constant(0)) return;
    for (size_t i = 0; i < d_.space.size(); ++i)
      if (i != static_cast<size_t>(*net.along)) instances = s_.grid(i) * instances;
    const module_role role = pe_port.input ? module_role::dummy_source : module_role::dummy_sink;
    for (auto& m : sym_.modules)
      if (m.role == role && m.chain == tensor) {
        // A kind of the template: its own add_ports, after the PE's, counts its FIFOs.
        m.instances = m.instances + instances;
        return;
      }
    symbolic_module& d = sym_.modules.emplace_back();
    d.name = tensor.name() + (pe_port.input ? "_PE_dummy_in" : "_PE_dummy_out");
    d.role = role;
    d.chain = tensor;
    d.instances = instances;
    d.ports.push_back({pe_port.input ? "out" : "in", !pe_port.input, pe_port.element, lanes, tensor, 1});
    if (!pe_port.input) d.fifos_in = instances;  // the FIFO from each last PE
  }

  // The extents of a part's schedule dimensions.
  std::vector<expr> part_dims(const module_kind& k, const module_part& p, bool template_pack) {
    std::vector<expr> dims;
    if (p.iterates == module_part::iteration::pe_frame) {
      for (size_t i = 0; i < s_.frame_dims(); ++i) dims.push_back(s_.frame_extent(i));
      dims.push_back(1);  // the statement's position
      return dims;
    }
    const network_terms& n = network(k);
    // Leaf dims: a module at level k moves the leaves of its own and the later modules of its
    // chain (dim g = k; the last one, a boundary kind, its own only) and all leaves below (g < k).
    const size_t level = static_cast<size_t>(k.level - n.buffered_level);
    for (size_t g = n.cluster_order.size(); g-- > 0;)
      dims.push_back(g == level && k.boundary ? expr(1) : s_.grid(static_cast<size_t>(n.cluster_order[g])));
    for (size_t e = 0; e < n.box.size(); ++e)
      dims.push_back(e + 1 < n.box.size() ? n.box[e] : template_pack ? n.box[e] / n.pack_template : n.box[e] * n.inverse_pack);
    return dims;
  }

  // What module k does per tile: its step, an input's fill, an output's drain, and the tiles it
  // runs in (measured at the template; every part that runs must run in the same tiles).
  modeling::module_timing module_timing(const architecture& a, int k) {
    const module_kind& kind = a.modules[static_cast<size_t>(k)];
    expr current = 0, previous = 0;
    // The transfer parts (over chunk words) of each side: what runs before the PEs start (an
    // input's fill) or after they end (an output's send). Parts over the PE frame move at the PEs'
    // pace and overlap their compute.
    expr transfer_current = 0, transfer_previous = 0;
    std::optional<std::vector<modeling::tile_range>> ranges;
    for (size_t p = 0; p < kind.parts.size(); ++p) {
      const module_part& part = kind.parts[p];
      expr at_template = modeling::part_cost(part, part_dims(kind, part, true), o_.timing);
      std::vector<expr> dims = part_dims(kind, part, false);
      expr cost = modeling::part_cost(part, dims, o_.timing);
      auto [part_ranges, cycles] = measured(a, k, static_cast<int>(p));
      check(kind_text(d_, kind, part) + ": cycles per tile", at_template, cycles);
      if (part_ranges) {
        if (ranges && *ranges != *part_ranges)
          throw error(fmt::format("{}: runs in other tiles than the module's other parts; sadsl does not model that yet",
                                  kind_text(d_, kind, part)));
        ranges = part_ranges;
      }
      bool transfer = part.iterates == module_part::iteration::chunk_words;
      // A DRAM transfer's words: one a call of its program (its cycles at II 1), not the product
      // of its dims: a chain of leaves of which only one holds data (E written under k == N - 1
      // where k is in space: only the last PE along k drains it) is a dim its program does not
      // loop over, as the template shows.
      expr words = transfer && kind.dram ? modeling::part_cost(part, dims, pipeline_timing{1, 0}) : expr(0);
      if (transfer && kind.dram && o_.dram_bytes_per_cycle < 64) {
        // The DRAM port's bandwidth bounds the transfer (the timed simulation's port clock).
        expr bytes = words * network(kind).pack * expr(type_size(network(kind).element));
        cost = model::max(cost, bytes / expr(o_.dram_bytes_per_cycle));
      }
      expr& side = part.previous_tile ? previous : current;
      side = side + cost;
      if (transfer) {
        expr& moved = part.previous_tile ? transfer_previous : transfer_current;
        moved = moved + cost;
      }
      if (transfer && kind.dram) {
        words_ = words;
        active_ = part_ranges ? modeling::tile_count(frame_, *part_ranges) : expr(0);
      }
    }
    modeling::module_timing out;
    out.name = kind.name;
    bool double_buffered = !previous.is_constant(0);
    out.step = double_buffered ? model::max(current, previous) : current;
    // A module that runs in no tile (a part of a network the point does not use) counts as
    // running in all with no cost.
    out.ranges = ranges.value_or(std::vector<modeling::tile_range>(d_.tile_order.size(), modeling::tile_range::all));
    if (kind.role == module_role::io_in) {
      out.role = model::module_role::input;
      out.fill = transfer_current;
      out.latency = input_latency(kind);
    } else if (kind.role == module_role::io_out) {
      out.role = model::module_role::output;
      out.drain = double_buffered ? transfer_previous : transfer_current;
    }
    return out;
  }

  // The cycles a word of input module kind k takes to reach the PEs beyond its transfer: one
  // FIFO latency per level from k down to the PEs, and where k reads DRAM, the port's first
  // access (a fresh port delivers a word of b bytes after b / bandwidth cycles).
  expr input_latency(const module_kind& k) const {
    expr hops = static_cast<double>(k.level - network(k).buffered_level + 1);
    if (!k.dram) return hops;
    expr bytes = network(k).pack * expr(type_size(network(k).element));
    return hops + model::ceil(bytes / expr(o_.dram_bytes_per_cycle));
  }

  // The PE's frame: extents, their template values and its loops' strides.
  modeling::pe_frame frame_of_pe(const architecture& a) {
    modeling::pe_frame f;
    for (const auto& part : a.pe().parts) {
      f.extents = part_dims(a.pe(), part, false);
      for (auto& [d, stride] : modeling::loop_strides(part, f.extents, o_.timing)) f.strides.emplace(d, stride);
    }
    for (const auto& e : f.extents) f.at_template.push_back(static_cast<int64_t>(model::evaluate(e, values_)));
    return f;
  }

  // At the template: per tile loop, the tiles (of all phases) in which some instance runs the
  // part (nullopt: none), and the cycles of one such tile.
  std::pair<std::optional<std::vector<modeling::tile_range>>, int64_t> measured(const architecture& a, int k, int p) {
    const module_kind& kind = a.modules[static_cast<size_t>(k)];
    const module_part& part = kind.parts[static_cast<size_t>(p)];
    std::vector<std::vector<int64_t>> active;
    int64_t cycles = -1;
    std::vector<int64_t> per_tile = most_part_cycles(a, k, p, tiles_, o_.timing);
    for (size_t ti = 0; ti < tiles_.size(); ++ti) {
      const std::vector<int64_t>& t = tiles_[ti];
      int64_t most = per_tile[ti];
      if (most == 0) continue;
      if (cycles >= 0 && most != cycles)
        throw error(fmt::format("{}: its tiles take different cycles ({} and {}); sadsl does not model that yet",
                                kind_text(d_, kind, part), cycles, most));
      cycles = most;
      active.push_back(t);
    }
    if (active.empty()) return {std::nullopt, 0};
    std::vector<modeling::tile_range> ranges;
    size_t product = 1;
    for (size_t j = 0; j < d_.tile_order.size(); ++j) {
      std::set<int64_t> values, all;
      for (const auto& t : active) values.insert(t[j]);
      for (const auto& t : tiles_) all.insert(t[j]);
      auto range = tile_range_of(values, all);
      if (!range)
        throw error(fmt::format("{}: runs in some of the tiles of loop {}; sadsl does not model that yet", kind_text(d_, kind, part),
                                d_.tile_order[j].name()));
      ranges.push_back(*range);
      product *= values.size();
    }
    if (product != active.size())
      throw error(fmt::format("{}: the tiles it runs in are not a product of ranges; sadsl does not model that yet",
                              kind_text(d_, kind, part)));
    return {ranges, cycles};
  }

  // Which range `values` is of the tiles `all` of one loop. With two tiles (a loop bounded by the
  // first size, 16 at the template) the first alone and all but the last are the same tiles: it
  // reads as the first (or the last) alone. The reduction loops that become phase loops in MM,
  // CNN, MTTKRP and TTMc have three or more.
  static std::optional<modeling::tile_range> tile_range_of(const std::set<int64_t>& values, const std::set<int64_t>& all) {
    using modeling::tile_range;
    if (values == all) return tile_range::all;
    bool has_first = values.count(*all.begin()) > 0, has_last = values.count(*all.rbegin()) > 0;
    if (values.size() + 1 == all.size() && all.size() >= 3) return has_first ? tile_range::all_but_last : tile_range::all_but_first;
    if (values.size() == 1 && all.size() >= 3 && (has_first || has_last)) return has_first ? tile_range::first : tile_range::last;
    if (values.size() == 1 && all.size() == 2) return has_first ? tile_range::first : tile_range::last;
    return std::nullopt;
  }

  // A buffer of module k: one copy's extents, banks, BRAM18K and URAM blocks (as buffer_bram18k
  // and buffer_uram count them).
  symbolic_buffer buffer_of(const module_kind& k, const buffer& b) const {
    symbolic_buffer out;
    out.name = b.name;
    out.tensor = b.tensor;
    out.element = b.element;
    out.double_buffered = b.double_buffered;
    if (k.buffered) {
      out.extents = network(k).box;
    } else {  // a PE's local buffer: the box of the local accesses of its tensor
      std::vector<access_ref> accesses;
      for (const auto& st : prog_.statements()) {
        if (st.write.tensor->id() == b.tensor) accesses.push_back({st.id, -1});
        for (size_t r = 0; r < st.reads.size(); ++r)
          if (st.reads[r].tensor->id() == b.tensor) accesses.push_back({st.id, static_cast<int>(r)});
      }
      out.extents = s_.box(accesses);
      for (size_t dim = 0; dim < out.extents.size(); ++dim) {
        const expr span = out.extents[dim];
        const std::string what = fmt::format("design {}: extent {} of buffer {} of module {}", d_.name(), dim, b.name, k.name);
        out.extents[dim] = sliced(span, b.extents.at(dim));
        check(what, out.extents[dim], b.extents.at(dim));
        if (triangular_)
          out.extents[dim] = modeling::one_tile_extent(
              s_, one_tile_, out.extents[dim], span, [&](const architecture& a) { return modeling::pe_extent(a, b.tensor, dim); }, what);
      }
    }
    expr size = 1;
    for (const auto& e : out.extents) size = size * e;
    expr banks = 1;
    if (k.buffered) {
      banks = network(k).pack;
      for (const auto& part : k.parts)
        for (const auto& block : part.blocks)
          for (const auto& op : block.ops)
            if (op.buffer == 0 && part.iterates == module_part::iteration::pe_frame && op.lanes > 1)
              banks = at_most(banks, s_.simd()) ? s_.simd() : model::max(banks, s_.simd());
    }
    out.banks = banks;
    // A guarded design packs, and so banks, only buffers in registers (plan_network): its block
    // RAM and UltraRAM buffers have one bank. (Written so, the memory terms divide by no packing
    // the exact search would have to bound.)
    const expr memory_banks = guarded_ ? expr(1) : banks;
    expr bits = static_cast<double>(bits_of(b.element));
    expr per_bank = model::ceil_div(size, memory_banks);
    expr over = [](const expr& x, double limit) { return model::min(expr(1), model::max(expr(0), x - expr(limit))); }(
        size, static_cast<double>(register_buffer_elements));
    expr big = o_.prefer_uram ? model::min(expr(1), model::max(expr(0), per_bank - expr(4095))) : expr(0);
    out.uram = o_.prefer_uram ? over * big * model::ceil_div(bits * memory_banks, expr(72)) * model::ceil_div(per_bank, expr(4096))
                              : expr(0);
    out.bram18k = over * (expr(1) - big) * model::ceil_div(bits * memory_banks, expr(36)) * model::ceil_div(per_bank, expr(512));
    out.register_bits = (expr(1) - over) * size * bits;
    return out;
  }

  void add_constraints() {
    for (size_t i = 0; i < m_.params.size(); ++i) {
      const model::parameter& p = m_.params[i];
      if (p.role() == model::parameter_role::problem_size) continue;
      expr v = expr::parameter(i, p.name);
      m_.constraints.push_back({model::constraint::kind::at_least, v, *p.lower_bound, p.name + " >= 1"});
      if (p.role() != model::parameter_role::tile)
        m_.constraints.push_back({model::constraint::kind::at_most, v, *p.upper_bound, p.name + " <= " + model::to_string(*p.upper_bound)});
      for (size_t parent : p.divides)
        m_.constraints.push_back({model::constraint::kind::divides, v, expr::parameter(parent, m_.params[parent].name),
                                  p.name + " divides " + m_.params[parent].name});
      if (p.power_of_two) m_.constraints.push_back({model::constraint::kind::power_of_two, v, expr(), p.name + " is a power of two"});
    }
    // Latency hiding (as Odyssey): a PE that accumulates in a local buffer needs the latency
    // loops' iterations to cover the adder's pipeline, 8 x the SIMD factor.
    if (d_.latency.empty()) return;
    expr product = 1;
    std::string text;
    for (const auto& l : d_.latency) {
      factor_id f{l, tile_level::latency_hiding};
      product = product * expr::parameter(m_.parameter_index(d_.name_of(f)), d_.name_of(f));
      text += (text.empty() ? "" : " * ") + d_.name_of(f);
    }
    m_.constraints.push_back({model::constraint::kind::at_least, product, expr(8) * s_.simd(),
                              "latency hiding: " + text + " >= 8 * " + model::to_string(s_.simd())});
  }

  // A guarded design's partial tiles run only their real instances, in tiles of their own shape,
  // which this model does not describe; where every first-level factor divides its loop's size
  // there are none, and the design runs as a padded one would (the template is built so). The
  // model's space is those points: each factor divides its size (the tuner lists only divisors).
  void add_whole_tiles() {
    for (const auto& l : d_.band->loop_ids()) {
      const modeling::loop_terms& t = s_.loop(l);
      std::vector<size_t> factor = model::parameters_of(t.t1), size = model::parameters_of(t.extent);
      SADSL_INTERNAL_ASSERT(factor.size() == 1 && size.size() == 1, "add_whole_tiles: a band loop over [0, P) tiled by t1");
      m_.params[factor.front()].divides.push_back(size.front());
    }
  }

  // Loops that share a size param (square MM's i, j, k over N) and cannot each run to their own
  // padded bound (compute/zero_padding.hpp) pad it together: where their first-level factors pad
  // it to different sizes the design runs guarded (comm/padding.hpp), which the model does not
  // describe, so those points are not in its space.
  void add_shared_padding() {
    zero_padding z = check_zero_padding(d_);
    if (!z.valid()) return;     // guarded: modeled where its factors divide the sizes (add_whole_tiles)
    if (z.pads_apart) return;  // each loop runs to its own padded bound: every point is zero-padded
    std::map<const detail::symbol_node*, loop_id> first;
    for (const auto& [loop, param] : z.loop_params) {
      loop_id l = loop->loop_identity();
      auto [seen, fresh] = first.emplace(param, l);
      if (fresh) continue;
      const modeling::loop_terms& a = s_.loop(seen->second);
      const modeling::loop_terms& b = s_.loop(l);
      std::string text = fmt::format("{} and {} pad {} alike", d_.name_of({seen->second, tile_level::array_partition}),
                                     d_.name_of({l, tile_level::array_partition}), param->name);
      for (auto relation : {model::constraint::kind::at_most, model::constraint::kind::at_least}) {
        m_.constraints.push_back({relation, a.tiles * a.t1, b.tiles * b.t1, text});
        sym_.constraints.push_back(m_.constraints.back());
      }
    }
  }

  // A space loop along which the PEs forward partial sums (a flow group: the PEs reduce along it)
  // needs two or more PEs for the architecture the model describes: with one, the partial sums
  // stay in the PE and the networks that reload or drain them are others (MM's [j,k] with
  // k_t1 = k_t2 drains C instead of reloading it). So does one along which computed values flow
  // (LU's U_tmp along j): with one PE they go through DRAM instead.
  void add_reduction_grids(const architecture& a) {
    for (size_t i = 0; i < d_.space.size(); ++i) {
      bool flows = false, partial_sums = false;
      for (const auto& n : a.networks)
        for (const auto& st : prog_.statements())
          if (n.along && static_cast<size_t>(*n.along) == i && st.write.tensor->id() == n.tensor) {
            flows = true;
            partial_sums = partial_sums || reads_itself(st);
          }
      if (!flows) continue;
      m_.constraints.push_back({model::constraint::kind::at_least, s_.grid(i), expr(2),
                                fmt::format("two or more PEs along {} ({} flow between them)", d_.space[i].name(),
                                            partial_sums ? "partial sums" : "values")});
      sym_.constraints.push_back(m_.constraints.back());
    }
  }

  // 1 where PE buffer b exists. A buffer of a tensor that only recurrences write (no
  // initialization writes it in the PE: an inout C += A x B, or C = min(C, A + B)) holds the value
  // that the band loops not indexing it carry from one iteration to the next in a PE: in its tile
  // (t1 iterations of a time loop, the latency or SIMD factor of a space loop) and, where the
  // buffer persists across tiles (the loops indexing it outermost in the tile order, as
  // comm/routing.cpp keeps it), across a time loop's tiles. Where all of that is one iteration the
  // value passes straight through the PE, which has no such buffer.
  // Whether st, which writes its tensor without reading it, is an initialization under a guard at
  // a loop that does not index the tensor whose else branch is every recurrence of the tensor
  // (`if (k == 0) C = A B; else C += A B`): it starts the recurrence the way a loaded value does,
  // so the PE's buffer exists where the recurrence carries a value, as for an inout tensor.
  // (Without the else, the recurrence reads the initialized value in the same PE.)
  bool starts_recurrence(const statement_info& st, const std::function<bool(const loop_id&)>& indexes) const {
    auto carrying = [&](const guard& g) {
      for (const auto& c : g.cond.constraints())
        for (const auto& l : st.record->loops)
          if (c.expr.coefficient(l.get()) != 0 && !indexes(l->loop_identity())) return true;
      return false;
    };
    for (const auto& g : st.record->guards) {
      if (!carrying(g)) continue;
      auto in_else = [&](const statement_info& other) {
        if (other.write.tensor->id() != st.write.tensor->id() || !reads_itself(other)) return true;
        return std::any_of(other.record->guards.begin(), other.record->guards.end(),
                           [&](const guard& h) { return h.negated != g.negated && same_condition(h.cond, g.cond); });
      };
      if (std::all_of(prog_.statements().begin(), prog_.statements().end(), in_else)) return true;
    }
    return false;
  }

  expr carried_presence(const buffer& b) const {
    auto indexes = [&](const loop_id& l) {  // some access of the tensor is indexed by l
      for (const auto& st : prog_.statements()) {
        if (st.write.tensor->id() == b.tensor && st.write.uses(l)) return true;
        for (const auto& r : st.reads)
          if (r.tensor->id() == b.tensor && r.uses(l)) return true;
      }
      return false;
    };
    bool recurrence = false, initialized = false;
    for (const auto& st : prog_.statements()) {
      if (st.write.tensor->id() != b.tensor) continue;
      if (reads_itself(st)) recurrence = true;
      else if (!starts_recurrence(st, indexes)) initialized = true;
    }
    if (!recurrence || initialized) return 1;
    size_t key = 0;
    while (key < d_.tile_order.size() && indexes(d_.tile_order[key])) ++key;
    bool persists = true;
    for (size_t pos = key; pos < d_.tile_order.size(); ++pos) persists = persists && !indexes(d_.tile_order[pos]);
    expr beyond_first = 0;  // iterations after the first, over the carrying loops
    bool carried = false;
    for (const auto& l : d_.band->loop_ids()) {
      if (indexes(l)) continue;
      const modeling::loop_terms& t = s_.loop(l);
      expr iterations = t.space ? t.w : t.t1;
      // Across a space loop's tiles the value moves on (the chain's last PE to its first).
      if (persists && !t.space) iterations = iterations * t.tiles;
      beyond_first = beyond_first + (iterations - expr(1));
      carried = true;
    }
    if (!carried) return 1;
    expr present = model::min(expr(1), beyond_first);
    check(fmt::format("design {}: the presence of PE buffer {}", d_.name(), b.name), present, 1);  // built at the template
    return present;
  }

  void check(const std::string& what, const expr& e, int64_t concrete) const {
    double v = model::evaluate(e, values_);
    if (v != static_cast<double>(concrete))
      throw error(fmt::format("{}: the model says {} ({}), the architecture at the template point has {}; sadsl cannot "
                              "model this design yet", what, v, model::to_string(e), concrete));
  }

  const design& d_;
  const modeling_options& o_;
  model::design_model& m_;
  bool guarded_ = false;  // the architecture runs partial tiles guarded (modeled at whole tiles)
  bool triangular_ = false;  // a band loop's bounds depend on an outer loop (symbols::triangular)
  std::vector<modeling::one_tile_template> one_tile_;  // a triangular design's, one per set of band loops
  std::optional<std::vector<modeling::tile_traffic>> traffic_;  // of a triangular design's tiles
  std::vector<modeling::moved_values> moved_;  // ... and its values moved in a run
  size_t next_index_ = 0;                      // of the model's sums and maxima
  symbolic_architecture& sym_;
  const program& prog_;
  symbols s_;
  std::vector<double> values_;
  std::vector<network_terms> networks_;
  std::vector<std::vector<int64_t>> tiles_;  // of every phase, at the template
  modeling::tile_frame frame_;
  expr words_ = 0, active_ = 0;  // of the last top-level transfer part seen
  std::vector<expr> active_kind_;  // per module kind: 1 where it runs in some tile, else 0
};

}  // namespace

std::vector<double> model_point(const model::design_model& m, const design_point& p, const kernel& k) {
  return model_point(m.name, m.params, p, k);
}

std::vector<double> model_point(const std::string& name, const std::vector<model::parameter>& params, const design_point& p,
                                const kernel& k) {
  std::vector<double> out;
  for (const auto& x : params) {
    double v = 0;
    if (const auto* size = std::get_if<model::problem_size_origin>(&x.origin)) {
      for (const auto& q : k.params())
        if (q.id() == size->param) v = static_cast<double>(q.value());
    } else if (const auto* f = std::get_if<factor_id>(&x.origin)) {
      auto it = p.find(*f);
      if (it == p.end()) throw error(fmt::format("model \"{}\": the design point has no value for {}", name, x.name));
      v = static_cast<double>(it->second);
    }
    out.push_back(v);
  }
  return out;
}

namespace {

// Builds design d's model and symbolic architecture from the architecture at its template point.
void read_template(const design& d, const modeling_options& options, model::design_model& m, symbolic_architecture& sym) {
  if (!(options.dram_bytes_per_cycle > 0))
    throw error(fmt::format("performance_model: the DRAM bandwidth must be positive (is {} bytes per cycle)",
                            options.dram_bytes_per_cycle));
  m.name = d.name();
  m.source = "sadsl";
  bool triangular = false;
  {  // what the symbols cannot express (non-affine extents) is refused before the template is built
    model::design_model scratch;
    triangular = symbols(d, scratch).triangular();
  }
  // A guarded design is modeled where its tiles are whole (builder::add_whole_tiles), and so is a
  // triangular one (its tiles' phases: modeling/triangular_phases.hpp).
  zero_padding z = check_zero_padding(d);
  const bool whole_tiles = (!z.valid() && z.whole_tiles_at_divisors) || triangular;
  const std::vector<int64_t> values = modeling::template_sizes(d, whole_tiles);
  scoped_sizes sizes(d.band->source->kernel(), [&](int64_t n, int64_t) { return values[static_cast<size_t>(n)]; });
  architecture_point at{modeling::template_point(d), {}, options.prefer_uram, /*widest_packing=*/false};
  at.operation_expressions = false;  // the model reads the programs, not the operations' guards and indices
  architecture a = build_architecture(d, at);
  builder(d, options, m, sym).build(a, at);
  sym.params = m.params;
}

}  // namespace

model::design_model performance_model(const design& d, const modeling_options& options) {
  model::design_model m;
  symbolic_architecture sym;
  read_template(d, options, m, sym);
  // The products of tile counts follow the design's tile order; in the counts' own order, the
  // tile orders of a dataflow often share one compiled core (model/tile_counts.hpp).
  model::order_products(m);
  return m;
}

symbolic_architecture build_symbolic_architecture(const design& d, const modeling_options& options) {
  model::design_model m;
  symbolic_architecture sym;
  read_template(d, options, m, sym);
  return sym;
}

}  // namespace sadsl
