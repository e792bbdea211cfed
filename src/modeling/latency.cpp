// The latency structure of a compiler-built model (latency.hpp): each phase as a pipeline of tiles,
// and the phases one after another.
//
// A phase runs its tiles through three stages: the inputs fill a tile (the prologue: the PEs wait
// for it), the PEs compute it, the outputs send it (the epilogue: after the PEs' last tile). With
// double buffers each stage works on its own tile, so n tiles take one tile of each stage plus
// n - 1 steps of the slowest module: prologue + pe_tile + (n - 1) x step + epilogue. A module's
// main is therefore (n - 1) x step + pe_tile (the PE's own is n x pe_tile); when the PEs are the
// bottleneck this is Odyssey's n x step, when an I/O chain is, the PE's single tile is what the
// chain's tiles do not hide. Each adds once the wavefront it does not hide (pe_pipeline.hpp): the
// last PE finishes a tile that much after the first.
//
// Phases run one after another (timed_simulation.hpp) and differ in which modules run (a reload
// does not run in the first phase, a write-back not in the last, a drain only in the last), so
// the latency is a sum over phases of maxima over modules. model::metrics_of takes the max over
// modules of sums, so each module waits out the phases it does not run in: in them it counts that
// phase's prologue, main or epilogue (the max over the modules that run). The max over modules is
// the sum over phases whenever one module is the longest in every phase it runs in.
#include "latency.hpp"

#include <algorithm>
#include <optional>

#include "sadsl/error.hpp"

namespace sadsl::modeling {

namespace {

// Where a phase stands along one phase loop of n tiles: the first, one of the n - 2 middle ones,
// the last, or the only one (n = 1, first and last at once).
enum class position { first, middle, last, only };

expr at_least_two(const expr& n) { return model::min(expr(1), n - expr(1)); }

expr phases_at(position p, const expr& n) {
  switch (p) {
    case position::first:
    case position::last: return at_least_two(n);
    case position::middle: return model::max(expr(0), n - expr(2));
    case position::only: return expr(1) - at_least_two(n);
  }
  throw internal_error("compose_latency: a position out of range");
}

bool runs_at(tile_range r, position p) {
  switch (r) {
    case tile_range::all: return true;
    case tile_range::all_but_first: return p == position::middle || p == position::last;
    case tile_range::all_but_last: return p == position::first || p == position::middle;
    case tile_range::first: return p == position::first || p == position::only;
    case tile_range::last: return p == position::last || p == position::only;
  }
  throw internal_error("compose_latency: a tile range out of range");
}

// Along a loop of n tiles inside a phase: how many a module runs in, and the offsets of its first
// and last one.
expr tiles_in(tile_range r, const expr& n) {
  if (r == tile_range::all) return n;
  if (r == tile_range::all_but_first || r == tile_range::all_but_last) return n - expr(1);
  return 1;
}
expr first_offset(tile_range r, const expr& n) {
  if (r == tile_range::all_but_first) return 1;
  if (r == tile_range::last) return n - expr(1);
  return 0;
}
// How many tiles follow a module's last one along the loop: n - 1 less its last offset, kept as
// this per-loop term so that the tiles after its last one in the phase, a sum of these weighed by
// the inner tiles, is a sum of non-negative terms the exact search can bound (tune/bound.cpp), not
// the difference of two products that is identically zero when it runs in every tile.
expr after_last(tile_range r, const expr& n) {
  if (r == tile_range::first) return n - expr(1);
  if (r == tile_range::all_but_last) return 1;
  return 0;
}

// One module within one phase it runs in. An input module's main runs from the phase's start
// (its fill, then its steps); `start` is when its data let the last PE start the phase's first
// tile (its fill, its first word's way to the PEs, and the hops after the first PE less its
// stagger). The PEs and the modules that wait for them add the latest start of the inputs that
// run to their own steps.
struct in_phase {
  expr start, main, epilogue;
  // An input that runs in every tile of the phase: its main after the PEs' start (the latest
  // `start` of the inputs that run), were it held up until then (compose_latency).
  std::optional<expr> after_start;
};

// The terms below are written so that the exact search can bound them (tune/bound.cpp): sums
// of non-negative products, a module's n tiles at the PEs' step as n x pe_tile (one monomial, which
// the search couples with the DSP budget) rather than (n - 1) x pe_tile + pe_tile.
in_phase within_phase(const tile_frame& f, const module_timing& m) {
  expr runs = 1, tiles = 1, first = 0, after = 0;
  bool every_tile = true;
  for (size_t j = f.tiles.size(); j-- > 0;) {  // innermost first: offsets weigh by the inner tiles
    if (f.phase[j]) continue;
    if (m.ranges[j] != tile_range::all) {
      first = first + first_offset(m.ranges[j], f.tiles[j]) * tiles;
      after = after + after_last(m.ranges[j], f.tiles[j]) * tiles;
      every_tile = false;
    }
    runs = runs * tiles_in(m.ranges[j], f.tiles[j]);
    tiles = tiles * f.tiles[j];
  }
  // The PE tiles its own do not overlap: an input's tiles are followed by the PEs' tiles after its
  // last one, an output's preceded by those before its first one.
  expr steps = m.step.same_as(f.pe_tile) ? runs * f.pe_tile : (runs - expr(1)) * m.step + f.pe_tile;
  if (!every_tile && m.role == model::module_role::input) steps = steps + f.pe_tile * after;
  if (!every_tile && m.role == model::module_role::output) steps = steps + f.pe_tile * first;
  // A module that runs in no tile of the phase (a range of n - 1 tiles when n = 1) costs nothing.
  auto when_present = [&](const expr& x) { return every_tile ? x : model::min(expr(1), runs) * x; };
  in_phase out;
  bool input = m.role == model::module_role::input;
  out.main = when_present(input ? m.fill + m.latency + steps + m.wavefront : steps);
  if (input) out.start = when_present(m.fill + m.latency + m.wavefront);
  if (m.role == model::module_role::output) out.epilogue = when_present(m.drain);
  // Its double buffer holds one tile beyond the one the PEs wait for: by the PEs' start it has
  // filled two tiles, and its later ones follow the PEs' first tile. Where the PEs start late
  // (another input fills a longer first tile: an inout C loaded in some tiles), it cannot use the
  // wait: the PEs' first tile and then, from its third tile on, its steps; its last tile's feed.
  if (input && every_tile)
    out.after_start = m.step.same_as(f.pe_tile) ? runs * f.pe_tile
                                                 : f.pe_tile + at_least_two(runs) * f.pe_tile + model::max(expr(0), runs - expr(2)) * m.step;
  return out;
}

// Every combination of positions along the phase loops, with how many phases it stands for.
struct phase_class {
  std::vector<position> at;  // per phase loop
  expr phases = 1;
};

std::vector<phase_class> phase_classes(const tile_frame& f) {
  std::vector<phase_class> out{{}};
  for (size_t j = 0; j < f.tiles.size(); ++j) {
    if (!f.phase[j]) continue;
    std::vector<phase_class> next;
    for (const auto& c : out)
      for (position p : {position::first, position::middle, position::last, position::only}) {
        phase_class d = c;
        d.at.push_back(p);
        d.phases = d.phases * phases_at(p, f.tiles[j]);
        next.push_back(std::move(d));
      }
    out = std::move(next);
  }
  return out;
}

bool runs_in(const tile_frame& f, const module_timing& m, const phase_class& c) {
  size_t p = 0;
  for (size_t j = 0; j < f.tiles.size(); ++j)
    if (f.phase[j] && !runs_at(m.ranges[j], c.at[p++])) return false;
  return true;
}

}  // namespace

expr tile_count(const tile_frame& frame, const std::vector<tile_range>& ranges) {
  expr n = 1;
  for (size_t j = 0; j < frame.tiles.size(); ++j) n = n * tiles_in(ranges[j], frame.tiles[j]);
  return n;
}

std::vector<model::module_latency> compose_latency(const tile_frame& frame, const std::vector<module_timing>& modules) {
  std::vector<in_phase> own;
  for (const auto& m : modules) own.push_back(within_phase(frame, m));
  std::vector<model::module_latency> out(modules.size());
  for (size_t i = 0; i < modules.size(); ++i) {
    out[i].name = modules[i].name;
    out[i].role = modules[i].role;
  }
  std::vector<expr> main(modules.size(), expr(0)), epilogue = main;
  std::vector<phase_class> classes = phase_classes(frame);
  std::erase_if(classes, [](const phase_class& c) { return c.phases.is_constant(0); });
  // A module that runs in every phase costs its own times once per phase: phases x own, which the
  // exact search bounds (the weights of the classes, each 0 somewhere, sum to the phases).
  expr phases = 1;
  for (size_t j = 0; j < frame.tiles.size(); ++j)
    if (frame.phase[j]) phases = phases * frame.tiles[j];
  std::vector<bool> everywhere(modules.size(), true);
  for (size_t i = 0; i < modules.size(); ++i)
    for (const phase_class& c : classes) everywhere[i] = everywhere[i] && runs_in(frame, modules[i], c);
  auto input = [&](size_t i) { return modules[i].role == model::module_role::input; };
  auto take = [](std::optional<expr>& acc, const expr& x) { acc = acc ? model::max(*acc, x) : x; };
  // The inputs' latest start in each class; the PEs and the modules that wait for them add it.
  // An input that runs in only some tiles of the phase (an inout C loaded at the first k tile)
  // may start the PEs later than the ones that run in every tile could run ahead: their mains
  // count from its start (after_start). Where every input runs in every tile, the one that starts
  // last has the longest fill and moves at least as much a tile: the others' wait is hidden.
  std::vector<std::optional<expr>> starts, holds;
  for (const phase_class& c : classes) {
    std::optional<expr> start, hold;
    for (size_t i = 0; i < modules.size(); ++i)
      if (input(i) && runs_in(frame, modules[i], c)) {
        take(start, own[i].start);
        if (!own[i].after_start) take(hold, own[i].start);
      }
    starts.push_back(start);
    holds.push_back(hold);
  }
  // The PEs and the modules that wait for them add the start to their own steps.
  auto main_in = [&](size_t i, size_t c) {
    if (!input(i)) return own[i].main + starts[c].value_or(modules[i].wavefront);
    return own[i].after_start && holds[c] ? model::max(own[i].main, *holds[c] + *own[i].after_start) : own[i].main;
  };
  bool no_hold = std::none_of(holds.begin(), holds.end(), [](const auto& h) { return h.has_value(); });
  bool one_hold = std::all_of(holds.begin(), holds.end(), [&](const auto& h) { return h && holds.front() && h->same_as(*holds.front()); });
  bool one_start = std::all_of(starts.begin(), starts.end(), [&](const auto& s) { return s && starts.front() && s->same_as(*starts.front()); });
  // The latest start of the inputs that run in every phase: each class's start is at least that.
  std::optional<expr> every_start;
  for (size_t i = 0; i < modules.size(); ++i)
    if (input(i) && everywhere[i]) take(every_start, own[i].start);
  std::vector<expr> waits(modules.size(), expr(0));
  for (size_t c = 0; c < classes.size(); ++c) {
    // The phase's own main and epilogue: the longest of the modules that run in it.
    std::vector<bool> runs;
    std::optional<expr> mm, e;
    for (size_t i = 0; i < modules.size(); ++i) {
      runs.push_back(runs_in(frame, modules[i], classes[c]));
      if (!runs.back()) continue;
      take(mm, main_in(i, c));
      if (modules[i].role == model::module_role::output) take(e, own[i].epilogue);
    }
    for (size_t i = 0; i < modules.size(); ++i) {
      if (everywhere[i]) {
        // The start part only (its own times are phases x own below), unless it is one for all.
        if (!input(i) && !one_start) waits[i] = waits[i] + classes[c].phases * starts[c].value_or(modules[i].wavefront);
        continue;
      }
      main[i] = main[i] + classes[c].phases * (runs[i] ? main_in(i, c) : mm.value_or(expr(0)));
      epilogue[i] = epilogue[i] + classes[c].phases * (runs[i] ? own[i].epilogue : e.value_or(expr(0)));
    }
  }
  for (size_t i = 0; i < modules.size(); ++i) {
    if (everywhere[i]) {
      if (input(i) && !no_hold && !one_hold) {
        for (size_t c = 0; c < classes.size(); ++c) main[i] = main[i] + classes[c].phases * main_in(i, c);
      } else {
        main[i] = main[i] + phases * (input(i) ? main_in(i, 0) : one_start ? own[i].main + *starts.front() : own[i].main);
      }
      // The same sum, as the exact search bounds it best: a sum of class weights (each 0 at some
      // tiling) is bounded below by little, phases x a start by the product of the tile counts.
      if (!waits[i].is_constant(0)) main[i] = main[i] + (every_start ? model::max(phases * *every_start, waits[i]) : waits[i]);
      if (!own[i].epilogue.is_constant(0)) epilogue[i] = phases * own[i].epilogue;
    }
    out[i].main = model::make_leaf(main[i]);
    if (modules[i].role == model::module_role::output) out[i].epilogue = model::make_leaf(epilogue[i]);
  }
  return out;
}

}  // namespace sadsl::modeling
