#pragma once
// A design model: everything needed to evaluate one systolic-array design at one parameter point.
// Parameters (problem sizes, tiling, SIMD and packing factors) with their relations, per-module
// latency as loop trees, resource and traffic expressions, and legality constraints.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sadsl/core/identity.hpp"
#include "sadsl/model/expr.hpp"
#include "sadsl/model/loop_tree.hpp"

namespace sadsl::model {

/// A parameter that is a problem size of the kernel (a loop bound given by the workload).
struct problem_size_origin {
  param_id param;
  friend bool operator==(const problem_size_origin&, const problem_size_origin&) = default;
};

/// A packing factor that the model declares but no I/O module uses (AutoSA declares one per I/O
/// group of every design of a kernel; e.g. MM's kernel3_2 keeps C on chip, so the factor of C's
/// reload modules, p11, has no owner). It is still inferred and checked like the others.
struct unused_pack_origin {
  friend bool operator==(const unused_pack_origin&, const unused_pack_origin&) = default;
};

/// Where a parameter comes from: a problem size, a tiling factor (which loop, which level) or a
/// data-packing factor (which tensor, I/O group kind and I/O level). Whoever builds a model says
/// this; the tuner and the tools read it instead of parsing names.
using parameter_origin = std::variant<problem_size_origin, factor_id, pack_id, unused_pack_origin>;

/// What a parameter stands for, derived from its origin (never stored separately).
enum class parameter_role {
  problem_size,  ///< a loop bound given by the workload (external)
  tile,          ///< first-level (array-partitioning) tiling factor t1
  latency_tile,  ///< second-level (latency-hiding) tiling factor t2
  simd,          ///< SIMD (vectorization) factor
  pack,          ///< data-packing factor (usually inferred)
};
parameter_role role_of(const parameter_origin& origin);

/// "problem size I", "tiling factor of loop i (array_partition)", "packing factor of tensor C
/// (output group, I/O level 1)", "packing factor used by no I/O module".
std::string describe(const parameter_origin& origin);

/// The origin as JSON: {"kind": "problem_size", "param": "I"}, {"kind": "tiling_factor", "loop":
/// "i", "level": "array_partition"}, {"kind": "packing_factor", "tensor": "C", "group": "output",
/// "io_level": 1} or {"kind": "packing_factor", "tensor": null}; each with "description".
nlohmann::ordered_json origin_json(const parameter_origin& origin);

/// How an inferred parameter is computed: the largest multiple of `lower` that divides `upper`
/// (Odyssey's infer_params); there is none unless 1 <= lower <= upper and lower | upper, and the
/// point is then illegal.
struct inference {
  expr lower;
  expr upper;
};

/// One parameter and its relations to the others (indices into design_model::params).
struct parameter {
  std::string name;  ///< printed name (the model's spelling, e.g. "i_t1"); unique in the model
  parameter_origin origin;
  parameter_role role() const { return role_of(origin); }
  std::optional<expr> lower_bound;  ///< inclusive
  std::optional<expr> upper_bound;  ///< inclusive
  std::vector<std::size_t> divides;      ///< this parameter divides each of these
  std::vector<std::size_t> multiple_of;  ///< this parameter is a multiple of each of these
  bool power_of_two = false;
  std::optional<inference> inferred;     ///< computed from the others, not chosen
  std::optional<std::size_t> split_by;   ///< the next-level tiling factor of this loop
};

/// A legality condition checked at every point.
struct constraint {
  enum class kind { at_least, at_most, power_of_two, divides };
  kind relation = kind::at_least;
  expr lhs;  ///< at_least: lhs >= rhs; at_most: lhs <= rhs; power_of_two: lhs; divides: lhs | rhs
  expr rhs;
  std::string description;  ///< e.g. "latency hiding: i_t2 * j_t2 >= 8 * k_t2"
};

/// Which phases a module's latency takes part in.
enum class module_role {
  input,    ///< loads data: in the prologue (one tile) and in the main phase
  output,   ///< stores data: in the epilogue (one tile) and in the main phase
  compute,  ///< main phase only (PEs, and I/O modules that are neither)
};

/// Latency of one hardware module. All modules run concurrently (dataflow) in the main phase.
struct module_latency {
  std::string name;
  module_role role = module_role::compute;
  loop_tree main = make_leaf(0);
  std::optional<loop_tree> prologue;  ///< loading the first tile (input modules)
  std::optional<loop_tree> epilogue;  ///< storing the last tile (output modules)
};

/// The bytes one DRAM port moves in a run, read and written: the port of one tensor (generated
/// HLS gives each tensor its own m_axi bundle).
struct dram_port {
  tensor_id tensor;
  expr bytes;
};

/// A complete model. Expressions refer to parameters by their index in `params`; inferred
/// parameters depend only on parameters before them.
struct design_model {
  std::string name;    ///< the design's name, given by whoever builds the model
  std::string source;  ///< where the model came from, e.g. "AutoSA descriptor gemm/kernel3_2.json" or "sadsl"
  std::vector<parameter> params;
  std::vector<module_latency> modules;
  expr dsp;
  expr bram18k;
  expr uram;
  expr lut;
  /// Flip-flops (an estimate, reported only; 0 where the model's source gives none).
  expr ff;
  expr offchip_bytes;
  /// offchip_bytes split by DRAM port, in the order the ports first appear; empty when the
  /// model's source gives no split (AutoSA's descriptors). Reported at a point, not searched.
  std::vector<dram_port> dram_ports;
  std::vector<constraint> constraints;

  /// Index of the parameter called `name`; throws sadsl::error naming the model if there is none.
  std::size_t parameter_index(const std::string& name) const;
  /// The expression for parameter `name`.
  expr param(const std::string& name) const;
};

/// The model's metrics as expressions: latency = prologue + main + epilogue, where prologue is the
/// max over input modules, main the max over all modules, epilogue the max over output modules.
struct metric_expressions {
  expr latency, latency_prologue, latency_main, latency_epilogue;
  expr dsp, bram18k, uram, lut, ff, offchip_bytes;
};
metric_expressions metrics_of(const design_model& model);

/// Usable resources of a device (total x usable fraction). A point is feasible when it is legal
/// and its DSP, BRAM18K and URAM use are each <= these (Odyssey's rule; LUT and FF are reported only).
struct device_limits {
  double dsp = 0;
  double bram18k = 0;
  double uram = 0;
};

/// The metrics of one point. A plain struct shared with generated C++ (layout is part of the ABI).
struct metrics {
  double latency = 0;
  double latency_prologue = 0;
  double latency_main = 0;
  double latency_epilogue = 0;
  double dsp = 0;
  double bram18k = 0;
  double uram = 0;
  double lut = 0;
  double ff = 0;
  double offchip_bytes = 0;
  double legal = 0;     ///< 1 when inference succeeded and every constraint holds, else 0
  double feasible = 0;  ///< 1 when legal and within the device limits, else 0
};

}  // namespace sadsl::model
