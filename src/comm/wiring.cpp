// Wiring: the PE instances, every FIFO between module instances, and the dummy modules that close
// chain ports with nothing on the other side (so every instance of a kind has the same ports).
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "construction.hpp"
#include "isl_util.hpp"
#include "sadsl/error.hpp"

namespace sadsl::comm_detail {

namespace {

int port_index(const module_kind& k, const std::string& name) {
  for (size_t i = 0; i < k.ports.size(); ++i)
    if (k.ports[i].name == name) return static_cast<int>(i);
  return -1;
}

constexpr int pe_module = 0;  // the PE is the first module kind

struct endpoint {
  int kind = -1, instance = -1, port = -1;
};

// fifo_<kind>_<coordinates joined by _>_<port>
std::string fifo_name(const std::string& kind, const std::vector<int64_t>& coords, const std::string& port) {
  std::string s;
  s.reserve(6 + kind.size() + 6 * coords.size() + port.size());
  s += "fifo_";
  s += kind;
  char digits[24];
  for (int64_t c : coords) {
    s += '_';
    s.append(digits, std::to_chars(digits, digits + sizeof digits, c).ptr);
  }
  s += '_';
  s += port;
  return s;
}

// Coordinates as a hash key (the largest arrays have thousands of PEs and FIFOs: ordered maps of
// coordinate vectors and formatted names were a tenth of their build).
struct coords_hash {
  size_t operator()(const std::vector<int64_t>& c) const {
    size_t h = c.size();
    for (int64_t v : c) h = h * 1000003u + static_cast<size_t>(v);
    return h;
  }
};

class wirer {
public:
  explicit wirer(architecture& a) : a_(a) {}

  // The port `port` of the instance with coordinates c among the kinds listed.
  endpoint at(const std::vector<int>& kinds, const std::vector<int64_t>& c, const std::string& port) {
    for (int k : kinds)
      if (auto e = find(k, c, port)) return *e;
    SADSL_INTERNAL_ASSERT(false, "no module instance at the given coordinates");
  }

  // The same in one kind (without a list of kinds to allocate per FIFO).
  endpoint at(int kind, const std::vector<int64_t>& c, const std::string& port) {
    auto e = find(kind, c, port);
    SADSL_INTERNAL_ASSERT(e.has_value(), "no module instance at the given coordinates");
    return *e;
  }

  void connect(const endpoint& from, const endpoint& to) {
    SADSL_INTERNAL_ASSERT(from.port >= 0 && to.port >= 0, "a FIFO to a missing port");
    const module_kind& k = a_.modules[static_cast<size_t>(from.kind)];
    const port& p = k.ports[static_cast<size_t>(from.port)];
    const std::vector<int64_t>& coords = k.instances[static_cast<size_t>(from.instance)];
    fifo f;
    f.name = fifo_name(k.name, coords, p.name);
    f.producer_kind = from.kind, f.producer_instance = from.instance, f.producer_port = from.port;
    f.consumer_kind = to.kind, f.consumer_instance = to.instance, f.consumer_port = to.port;
    f.element = p.element;
    f.lanes = p.lanes;
    a_.fifos.push_back(std::move(f));
    mark(from);
    mark(to);
  }

  bool connected(int kind, int instance, int port) const {
    if (static_cast<size_t>(kind) >= connected_.size()) return false;
    const auto& flags = connected_[static_cast<size_t>(kind)];
    size_t at = flag_of(kind, instance, port);
    return at < flags.size() && flags[at];
  }

private:
  std::optional<endpoint> find(int kind, const std::vector<int64_t>& c, const std::string& port) {
    const auto& index = instances_of(kind);
    auto i = index.find(c);
    if (i == index.end()) return std::nullopt;
    return endpoint{kind, i->second, port_index(a_.modules[static_cast<size_t>(kind)], port)};
  }

  // Instance numbers by coordinates, per kind (indexed again when a kind's instances changed).
  using instance_index = std::unordered_map<std::vector<int64_t>, int, coords_hash>;
  const instance_index& instances_of(int kind) {
    const auto& inst = a_.modules[static_cast<size_t>(kind)].instances;
    if (index_.size() <= static_cast<size_t>(kind)) index_.resize(static_cast<size_t>(kind) + 1);
    auto& index = index_[static_cast<size_t>(kind)];
    if (index.size() != inst.size()) {
      index.clear();
      for (size_t i = 0; i < inst.size(); ++i) index.emplace(inst[i], static_cast<int>(i));
    }
    return index;
  }

  size_t flag_of(int kind, int instance, int port) const {
    return static_cast<size_t>(instance) * a_.modules[static_cast<size_t>(kind)].ports.size() + static_cast<size_t>(port);
  }

  void mark(const endpoint& e) {
    if (connected_.size() < a_.modules.size()) connected_.resize(a_.modules.size());
    auto& flags = connected_[static_cast<size_t>(e.kind)];
    size_t at = flag_of(e.kind, e.instance, e.port);
    if (flags.size() <= at) flags.resize(at + 1, 0);
    flags[at] = 1;
  }

  architecture& a_;
  std::vector<instance_index> index_;  // per kind
  std::vector<std::vector<char>> connected_;  // per kind, per instance and port: has a FIFO
};

// The PE coordinates of a leaf: its grid coordinates, and the chain's first (inputs) or last
// (outputs) PE on the edge dim.
std::vector<int64_t> leaf_pe(const network_plan& n, const std::vector<int64_t>& leaf, const std::vector<int64_t>& grid) {
  std::vector<int64_t> p(grid.size(), 0);
  for (size_t g = 0; g < n.grid.size(); ++g) p[static_cast<size_t>(n.grid[g])] = leaf[g];
  if (n.edge_dim) p[static_cast<size_t>(*n.edge_dim)] = n.info.input ? 0 : grid[static_cast<size_t>(*n.edge_dim)] - 1;
  return p;
}

void wire_network(wirer& w, const architecture& a, const network_plan& n, const std::vector<int64_t>& grid) {
  const std::string pe_port = a.modules.front().ports[static_cast<size_t>(n.pe_port)].name;
  const bool in = n.info.input;
  const size_t m = n.grid.size();
  for (int k : n.level_kinds[0])
    for (const auto& c : a.modules[static_cast<size_t>(k)].instances) {
      auto p = leaf_pe(n, c, grid);
      if (in) w.connect(w.at(k, c, "to_pe"), w.at(pe_module, p, pe_port));
      else w.connect(w.at(pe_module, p, pe_port), w.at(k, c, "from_pe"));
    }
  for (size_t k = 0; k < m; ++k) {
    const auto& kinds = n.level_kinds[k];
    for (int kind : kinds)
      for (const auto& c : a.modules[static_cast<size_t>(kind)].instances) {
        auto next = c;
        ++next[0];
        bool has_next = next[0] < grid[static_cast<size_t>(n.grid[k])];
        if (has_next) {
          if (in) w.connect(w.at(kinds, c, "next"), w.at(kinds, next, "in"));
          else w.connect(w.at(kinds, next, "out"), w.at(kinds, c, "from_next"));
        }
        if (c[0] != 0) continue;  // the chain's head meets the level above
        std::vector<int64_t> upper(c.begin() + 1, c.end());
        const auto& up = n.level_kinds[k + 1];
        if (in) w.connect(w.at(up, upper, "down"), w.at(kinds, c, "in"));
        else w.connect(w.at(kinds, c, "out"), w.at(up, upper, "from_down"));
      }
  }
}

}  // namespace

void arch_builder::wire() {
  module_kind& pe_kind = out_.modules.front();
  pe_kind.instances = all_points(grid_);
  wirer w(out_);
  // PE to PE along each chain: "X_out" feeds the next PE's "X_in".
  std::map<std::string, int> chain_dim;  // chain port base -> dim
  for (const auto& r : routes_.reads)
    if (r.chain_dim && !r.chain.is_empty()) chain_dim[r.tensor.name()] = *r.chain_dim;
  for (const auto& wr : routes_.writes)
    if (wr.chain_dim && !wr.chain.is_empty()) chain_dim[wr.tensor.name()] = *wr.chain_dim;
  for (const auto& [base, dim] : chain_dim) {
    const std::string out = base + "_out", in = base + "_in";
    for (const auto& c : pe_kind.instances) {
      if (c[static_cast<size_t>(dim)] + 1 >= grid_[static_cast<size_t>(dim)]) continue;
      auto next = c;
      ++next[static_cast<size_t>(dim)];
      w.connect(w.at(pe_module, c, out), w.at(pe_module, next, in));
    }
  }
  for (const auto& n : networks_) wire_network(w, out_, n, grid_);
  // Chain ends no network serves: dummy sources (that send nothing) and sinks (that drop what
  // the last PE forwards).
  for (const auto& [base, dim] : chain_dim) {
    for (bool source : {true, false}) {
      int port_at = port_index(out_.modules.front(), base + (source ? "_in" : "_out"));
      if (port_at < 0) continue;
      std::vector<std::vector<int64_t>> open;
      for (size_t i = 0; i < out_.modules.front().instances.size(); ++i) {
        const auto& c = out_.modules.front().instances[i];
        bool edge = source ? c[static_cast<size_t>(dim)] == 0 : c[static_cast<size_t>(dim)] + 1 == grid_[static_cast<size_t>(dim)];
        if (edge && !w.connected(0, static_cast<int>(i), port_at)) open.push_back(c);
      }
      if (open.empty()) continue;
      const sadsl::port p = out_.modules.front().ports[static_cast<size_t>(port_at)];
      module_kind dummy;
      dummy.name = base + (source ? "_PE_dummy_in" : "_PE_dummy_out");
      dummy.role = source ? module_role::dummy_source : module_role::dummy_sink;
      for (int g = 0; g < static_cast<int>(grid_.size()); ++g) dummy.index_dims.push_back(g);
      dummy.instances = open;
      dummy.ports.push_back({source ? "out" : "in", !source, p.element, p.lanes, p.tensor});
      if (!source) dummy.parts.push_back(dummy_sink_part(port_at));
      int kind = static_cast<int>(out_.modules.size());
      out_.modules.push_back(std::move(dummy));
      for (const auto& c : open) {
        if (source) w.connect(w.at(kind, c, "out"), w.at(pe_module, c, base + "_in"));
        else w.connect(w.at(pe_module, c, base + "_out"), w.at(kind, c, "in"));
      }
    }
  }
  // Every port of every instance has its FIFO.
  for (size_t k = 0; k < out_.modules.size(); ++k)
    for (size_t i = 0; i < out_.modules[k].instances.size(); ++i)
      for (size_t p = 0; p < out_.modules[k].ports.size(); ++p)
        SADSL_INTERNAL_ASSERT(w.connected(static_cast<int>(k), static_cast<int>(i), static_cast<int>(p)),
                              fmt::format("port {} of {} instance {} has no FIFO", out_.modules[k].ports[p].name,
                                          out_.modules[k].name, i));
}

module_part arch_builder::dummy_sink_part(int port) {
  const module_kind& pe = out_.modules.front();
  std::vector<pe_coordinate> own(grid_.size());
  for (size_t i = 0; i < grid_.size(); ++i) own[i].param = static_cast<int>(i);
  const tensor_id& tensor = pe.ports[static_cast<size_t>(port)].tensor;
  bool written = std::any_of(prog_.arrays().begin(), prog_.arrays().end(),
                             [&](const array_info& x) { return x.tensor->id() == tensor && x.written; });
  // The tokens the last PE writes on the port, as the PE module writes them: the reads of a
  // read-only tensor it forwards, or the values of a written tensor its chain route sends on. (A
  // written tensor's last PE sends only what a network at the chain's end takes, often nothing,
  // whatever it reads from its own chain: a triangular domain's last PE along k writes no V.)
  isl::union_map schedule = isl::union_map::empty(params_.ctx());
  int position = 0;
  for (const auto& r : written ? routes_.writes : routes_.reads) {
    if (r.chain.is_empty() || !r.chain_dim || r.tensor != tensor) continue;
    const statement_info& s = prog_.statement(r.access.statement);
    std::string tuple = r.access.read < 0 ? fmt::format("{}_w", s.name()) : fmt::format("{}_r{}", s.name(), r.access.read);
    local_frame f = frame_of(s, own, tuple);
    f.domain = frame_points(f, r.chain.extract_set(s.domain.space()));
    f.whole = false;
    bool vector = false;
    token_lanes(r.access, vector);
    if (vector) f.domain = f.domain.intersect(isl::manage(isl_pw_aff_zero_set(comm_isl::var_on_set(f.domain, -1).release())));
    schedule = schedule.unite(frame_schedule(f, position++));
  }
  block_maker ops = [](const std::string& tuple, const node_context&) {
    op_block b;
    b.statement = tuple;
    operation take;
    take.what = operation::kind::read_port;
    take.port = 0;
    b.ops.push_back(take);
    return b;
  };
  return make_part("drop", false, schedule, params_only_context(grid_), ops, point_.isl_programs);
}

}  // namespace sadsl::comm_detail
