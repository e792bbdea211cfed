#pragma once
// Performance models built by the compiler: for a design, a model::design_model (parameters with
// their origins and relations, per-module latency loop trees, DSP, BRAM18K, URAM, LUT and
// off-chip bytes) read off the design's own architecture, so the tuner needs no file from
// another tool (docs/modeling.md).
//
// How: the architecture is built once at a template point where no loop of any module program
// degenerates (every level of every loop has at least two iterations, packing 1); each loop of
// each module part is then known by what it iterates — a tile-local frame dimension of the PE
// (time, latency or SIMD lane of a loop) or a leaf / element / word of an I/O chunk — whose
// extent is symbolic in the factors. Buffers, packing and banks are derived from the accesses the
// same way. The template's own counts check every formula before the model is returned.
#include <cstdint>
#include <vector>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/comm/part_cycles.hpp"
#include "sadsl/model/design_model.hpp"

namespace sadsl {

struct modeling_options {
  pipeline_timing timing;
  /// As architecture_point::prefer_uram: buffers of 4096 or more elements per bank go to URAM.
  bool prefer_uram = false;
  /// Bandwidth of each DRAM port (timing_options::dram_bytes_per_cycle of the timed simulation).
  /// Below 64 (one 512-bit word, the widest a transfer moves per cycle) a DRAM transfer takes at
  /// least its bytes / this many cycles; at 64 or more that bound never binds and is left out.
  double dram_bytes_per_cycle = 64;
};

/// The performance model of design d at the kernel's problem sizes (which stay parameters of the
/// model). sadsl::error when the design is outside what the builder models (it says why:
/// triangular loops, guarded partial tiles, loops below the band).
model::design_model performance_model(const design& d, const modeling_options& options = {});

/// Resources counted from a concrete architecture: DSPs of the PEs' operators, BRAM18K and URAM of
/// every buffer of every module instance and BRAM18K of every FIFO (fifo_bram18k). The model's expressions must equal these exactly.
struct resource_counts {
  int64_t dsp = 0;
  int64_t bram18k = 0;
  int64_t uram = 0;
  int64_t ff = 0;  // the estimate's parts: operators, FIFOs, register buffers (ff_per_operation)
};
resource_counts count_resources(const architecture& a);

/// DSP slices of one arithmetic operation of type t (docs/modeling.md gives the table's sources):
/// f32 add/sub 2, mul 3; f64 add/sub 3, mul 10; integer mul 1 up to 16 bits, 3 for 32 bits;
/// integer add/sub, min, max, negation, division and casts 0 (fabric).
int dsp_per_operation(expr_op op, elem_type t);

/// Flip-flops of one arithmetic operation of type t, in the implementations dsp_per_operation
/// counts (docs/modeling.md gives the sources): f32 add/sub 205, mul 143, div 761; integer
/// division 106 up to 8 bits and 394 at 32; integer multiplies (registers inside the DSP48E2),
/// adders, comparators and casts 0; f64 and 16-bit division 0 (no public figure).
int ff_per_operation(expr_op op, elem_type t);

/// Flip-flops of a FIFO of `bits`-wide tokens and `depth` places (AutoSA's FIFO model: a shift
/// register in LUTs with 5 control FFs up to 512 bits of storage, bits + 10 above).
int64_t fifo_ff(int64_t bits, int64_t depth);

/// BRAM18K blocks of a FIFO of `bits`-wide tokens and `depth` places: none up to 1024 bits of
/// storage (shift registers: Vitis HLS's default auto_srl_max_bits, UG1399 config_storage),
/// above that block RAM arranged as buffers are (512 x 36 each). Only the FIFOs deepened for
/// partial-sum chains (comm/fifo_depths.hpp) get there.
int64_t fifo_bram18k(int64_t bits, int64_t depth);

/// Arithmetic operations per DSP slice and cycle when every DSP of a PE lane works: the
/// operations of one instance of each statement that uses DSPs over their DSPs (MM fp32: 2 / 5;
/// int16: 2 / 1); 0 when no statement uses a DSP. The tuned configuration's DSP efficiency.
double operations_per_dsp(const program& p);

/// BRAM18K and URAM blocks of one copy of a buffer: `banks` memories side by side, each as wide
/// as banks x element bits and size / banks deep (registers: none).
int64_t buffer_bram18k(const buffer& b);
int64_t buffer_uram(const buffer& b);

/// The model's parameter values for design point p at the kernel's current sizes, in the model's
/// order (problem sizes by param, factors by identity).
std::vector<double> model_point(const model::design_model& m, const design_point& p, const kernel& k);
/// The same for the parameters `params` of model `name` (a symbolic architecture's).
std::vector<double> model_point(const std::string& name, const std::vector<model::parameter>& params, const design_point& p,
                                const kernel& k);

}  // namespace sadsl
