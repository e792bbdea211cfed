#pragma once
// How the PE array and the networks beside it pipeline a tile, beyond each module's own cycles:
// the wavefront across the array, and the serialization of single-buffered drains.
#include <map>
#include <vector>

#include "latency.hpp"
#include "sadsl/comm/architecture.hpp"
#include "sadsl/comm/part_cycles.hpp"
#include "symbols.hpp"

namespace sadsl::modeling {

/// The PE's tile-local frame: per schedule dim its extent (symbolic and at the template) and the
/// cycles one iteration of its loop takes in the PE program (loop_strides).
struct pe_frame {
  std::vector<expr> extents;
  std::vector<int64_t> at_template;
  std::map<size_t, expr> strides;
};

/// Per space dim of the PE grid, the cycles a PE runs behind its upstream neighbour along it:
/// PEs that forward data along the dim lag one FIFO latency (a cycle), and a partial sum forwarded
/// along it (a flow group: the PEs reduce along the dim) leaves a PE only once the PE has done its
/// part of the reduction, the element's lifetime in the PE. 0 where nothing is forwarded.
std::vector<expr> wavefront_hops(const architecture& a, const symbols& s, const pe_frame& f);

/// Sets each module's wavefront (module_timing::wavefront): the last PE of the grid starts a tile
/// sum over dims of (PEs - 1) x hop after the first. An input network whose unbuffered levels
/// deliver the buffered chains one after another along a dim already starts the PEs along it that
/// much apart (transfer / PEs along it per PE), which hides as much of each hop after its own
/// deliveries.
void set_wavefronts(const architecture& a, const symbols& s, const std::vector<expr>& hops,
                    std::vector<module_timing>& timings);

/// An output network whose unbuffered chain runs along a dim that an input staggers (an input
/// that runs in every tile) sends its groups along that dim in the order the inputs started
/// them, so the first groups, done earlier, are sent while the last ones still compute; an
/// input's buffered chain along the dim starts the PEs along it together once its head has
/// filled it, which takes back as much of the stagger. Shortens each such output module's drain
/// (the last tile's send after the last PE) accordingly, except along a dim the PEs forward data
/// along: their 2-deep FIFOs hold the first groups back until the last one runs.
void staggered_drains(const architecture& a, const symbols& s, std::vector<module_timing>& timings);

/// The wavefront without any input's stagger: sum over dims of (PEs - 1) x hop.
expr full_wavefront(const symbols& s, const std::vector<expr>& hops);

/// An output network whose buffered level is single-buffered collects a tile, then sends it: a
/// module cannot collect tile n + 1 (the PE waits to write it) before it has sent tile n, and the
/// chain above it has nothing of tile n + 1 to move before then. So each tile step of the network
/// waits for the collect's span in the PE's cycles beside the module's transfer: from the PE's
/// first write of the tile the FIFO cannot hold (it holds `depth` tokens) to its last. The PEs reach their writes `wavefront` apart, the first
/// ones (those the chain reads first) ahead, which hides as much of the span. `timings` are
/// indexed like a.modules.
void single_buffered_drains(const architecture& a, const pe_frame& f, const pipeline_timing& timing, const expr& wavefront,
                            std::vector<module_timing>& timings);

}  // namespace sadsl::modeling
