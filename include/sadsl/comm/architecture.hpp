#pragma once
// The architecture of a design bound to a point: the PE array, the I/O network that feeds and
// drains it, every FIFO, buffer and DRAM port, and each module's program as a tree of loops
// (program_tree.hpp). It is the one object HLS code generation, the executor and the
// compiler-built performance models read, so they cannot drift apart (docs/comm.md walks
// through MM).
//
// Structure (paper 002 section 6, paper 003):
//   - PEs: one per point of the space loops' PE grid; each runs the design's schedule for its
//     coordinates. Every value it reads comes from a local buffer, from its neighbour along a
//     space loop, or from an I/O network; every value it writes goes to a local buffer, its
//     neighbour, or an I/O network (routing.hpp decides, per statement instance, from the
//     dependences).
//   - I/O networks: one per I/O group that needs DRAM: levels L1 (beside the PEs) .. L(dim+1)
//     (beside DRAM), modules clustered into daisy chains along the space loops; a buffered
//     (double-buffered for inputs) level serves the PEs; exterior groups embed their L1 into the
//     PEs, which forward data along the group's direction.
//   - Dummy modules close the FIFOs at the array's edges, so every module kind has the same ports
//     for all its instances.
//   - Phases: tile loops that carry a dependence through DRAM (a partial result reloaded in a
//     later tile) run on the host, one kernel invocation per phase, so every invocation is a
//     dataflow without cycles (C simulation runs module calls one after the other).
#include <isl/cpp.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sadsl/comm/io_groups.hpp"
#include "sadsl/comm/program_tree.hpp"
#include "sadsl/compute/design.hpp"

namespace sadsl {

/// How partial tiles are handled. Zero-padded: every loop is padded to whole tiles, the host pads
/// the inputs with zeros and crops the outputs, and every PE runs full tiles (simple control, what
/// the hardware does). Guarded: partial tiles run only their real instances (non-rectangular
/// domains, or statements a padded iteration would corrupt).
enum class padding_mode { zero_padded, guarded };
std::string_view padding_mode_name(padding_mode m);

/// The point an architecture is built for: the design's factors and the data-packing factors of
/// its I/O networks (those not given are chosen: the largest allowed).
struct architecture_point {
  design_point factors;
  std::map<pack_id, int64_t> packs;
  /// Put large buffers (4096 or more elements per bank) in URAM rather than BRAM.
  bool prefer_uram = false;
  /// Where `packs` gives no factor: the widest legal one (true), or one element per word (the
  /// performance models' template point, where no word loop may degenerate).
  bool widest_packing = true;
  /// Generate every module program with isl's AST generator, not sadsl's own where it applies
  /// (the reference the own generator is tested against).
  bool isl_programs = false;
  /// Give every operation its guard and indices. Without them the architecture holds only what
  /// the performance models read off their template architecture (modeling/performance_model.hpp):
  /// the programs, and the operations' kinds, ports, buffers and lanes; it cannot be run.
  bool operation_expressions = true;
};

/// Where a buffer lives: registers (at most register_buffer_elements), block RAM, or UltraRAM.
enum class memory_kind { registers, bram, uram };
/// The most elements a buffer in registers holds; larger ones are block RAM (or UltraRAM).
constexpr int64_t register_buffer_elements = 64;
std::string_view memory_kind_name(memory_kind m);

/// The widest word a DRAM port moves per cycle (an AXI data bus of 512 bits): data packing puts
/// at most this many bits of elements in one FIFO or DRAM word.
constexpr int64_t dram_word_bits = 512;

enum class module_role { pe, io_in, io_out, dummy_source, dummy_sink };
std::string_view module_role_name(module_role r);

/// Where a module's FIFO port leads.
struct port {
  std::string name;       // "A_in", "C_out", "fifo_down", ...
  bool input = true;      // the module reads it (else writes)
  elem_type element;      // of the tensor it carries
  int64_t lanes = 1;      // elements per token (SIMD lanes or the packing factor)
  tensor_id tensor;
};

/// A local buffer of a module: a box of tensor elements, indexed by element - origin.
struct buffer {
  std::string name;            // "local_C", "local_A"
  tensor_id tensor;
  elem_type element;
  std::vector<int64_t> extents;
  bool double_buffered = false;
  /// Banks along the last dimension (cyclic): the most elements one operation moves per cycle.
  int64_t banks = 1;
  memory_kind memory = memory_kind::bram;
  int64_t size() const;        // elements (one copy)
};

/// The DRAM side of a top-level I/O module: which tensor, reading or writing, in words of `lanes`.
struct dram_access {
  tensor_id tensor;
  bool write = false;
  int64_t lanes = 1;
};

/// One operation of a user statement of a module program. Values live in registers: one per
/// read of a PE statement (its slot) plus the result, or one word for I/O statements. Expressions
/// are isl AST expressions over the program's iterators and parameters (the module's
/// coordinates p0.., the tile's t0..).
struct operation {
  enum class kind {
    read_port,    // register[slot] = the next token of `port` (lanes elements)
    write_port,   // the next token of `port` = register[slot]
    read_local,   // register[slot] = buffer[index .. + lanes)
    write_local,  // buffer[index .. + lanes) = register[slot]
    read_dram,    // register[slot] = tensor[index .. + lanes) (the top module of an in-network)
    write_dram,   // tensor[index .. + lanes) = register[slot]
    compute,      // register[slot] = the statement's value over the read registers
    copy_register,  // register[slot] = register[from_slot] of statement from_statement (a shared
                    // read: an earlier read of the same PE iteration holds the element)
  };
  kind what = kind::compute;
  int port = -1, buffer = -1;
  int slot = 0;
  int from_statement = -1, from_slot = -1;  // copy_register: the register it copies
  int64_t lanes = 1;                   // elements moved (a word, or a SIMD vector)
  /// A vector port operation of a PE: the SIMD lanes of an instance share one token; it is read
  /// at lane 0 and written at the last lane, and this instance's element is `lane`.
  bool vector = false;
  std::optional<isl::ast_expr> lane;
  std::vector<isl::ast_expr> index;    // element index (buffer or tensor coordinates, first element)
  std::optional<isl::ast_expr> when;   // the guard; none: always
};

/// The operations of one statement call of a program (the call's program_node::block).
struct op_block {
  std::string statement;               // the statement's name (S1, fill_A, feed_A, ...)
  int statement_index = -1;            // PE compute blocks: index into the program's statements
  std::vector<operation> ops;
};

/// One part of a module's work per tile, with its program (parameters: the module's coordinates
/// p0.., the tile's coordinates t0..). A double-buffered module runs the part that fills (or
/// collects) a tile while the part that feeds (or sends) the previous tile runs from the other
/// copy of its buffers.
struct module_part {
  std::string name;                    // "compute", "fill", "feed", "collect", "send", "transfer"
  bool previous_tile = false;          // runs one tile behind (feed / send of a double buffer)
  /// What its loops iterate: the leaf PE's tile-local frame (PE, feed, collect, dummy parts:
  /// time loops, latency loops, SIMD lane, statement position) or the words of the chunks it
  /// moves (fill, send, transfer parts: leaves, highest cluster dim first, then the chunk's
  /// stored dims, the last one in words). The performance model reads it.
  enum class iteration { pe_frame, chunk_words };
  iteration iterates = iteration::pe_frame;
  program_node program;
  bool isl_program = false;            // generated by isl's AST generator (else by sadsl's own)
  std::vector<op_block> blocks;        // by program_node::block of each call
};

/// A kind of module: its instances share ports, buffers and program and differ in coordinates.
struct module_kind {
  std::string name;                    // "PE", "A_IO_L2_in", "C_drain_IO_L1_out", "A_PE_dummy_out"
  module_role role = module_role::pe;
  int network = -1;                    // I/O modules: index into architecture::networks
  int level = 0;                       // I/O modules: 1 beside the PEs
  bool buffered = false;               // serves PEs from a local buffer
  bool boundary = false;               // a chain end: no downstream port
  std::vector<int> index_dims;         // the PE-grid dims its instances are indexed by (p0, p1, ...)
  std::vector<std::vector<int64_t>> instances;  // coordinates, one per instance
  std::vector<port> ports;
  std::vector<buffer> buffers;
  std::optional<dram_access> dram;
  std::vector<module_part> parts;
};

/// A FIFO between two module instances.
struct fifo {
  std::string name;                    // "fifo_A_PE_0_1"
  int producer_kind = -1, producer_instance = -1, producer_port = -1;
  int consumer_kind = -1, consumer_instance = -1, consumer_port = -1;
  elem_type element;
  int64_t lanes = 1;
  int64_t depth = 2;
};

/// The modules that move one I/O group's data between DRAM and the PEs.
struct io_network {
  tensor_id tensor;
  io_group_kind kind = io_group_kind::read;
  io_type type = io_type::interior;
  bool input = true;                   // DRAM to PEs (else PEs to DRAM)
  std::optional<int> along;            // exterior: the space dim the PEs forward along
  std::vector<int> cluster_order;      // the PE-grid dims clustered at the levels above the buffered one
  int buffered_level = 1;              // 1 interior, 2 exterior (L1 embedded in the PEs)
  int top_level = 1;                   // beside DRAM
  std::map<int, int64_t> packs;        // elements per word, per level
  /// Whether its chunks are whole boxes: always in a zero-padded design; in a guarded one at a
  /// point with no partial tile of a rectangular domain, not a triangle's or a partial tile's.
  /// A guarded design packs such a network where its buffer holds 64 elements or fewer (registers,
  /// whose banks cost no block RAM); else one element a word.
  bool whole_boxes = true;
  std::string name;                    // "A_IO", "C_drain_IO" (a second network of a tensor: "C_IO2")
};

/// A tensor's array in DRAM: the host's layout change before it is copied in (or after, for
/// outputs), or a scratch array of a local tensor the device reloads between tiles.
struct host_layout {
  tensor_id tensor;
  elem_type element = elem_type::f32;
  std::vector<int> order;              // stored dimension d is the tensor's dimension order[d]
  std::vector<int64_t> extents;        // of the stored (padded) array
  bool scratch = false;                // a local tensor: device memory only, never copied
};

struct architecture {
  std::shared_ptr<detail::kernel_state> owner;  // keeps the isl context alive (first member)
  std::shared_ptr<const sadsl::design> design;
  architecture_point point;
  padding_mode padding = padding_mode::zero_padded;
  bool reduction_reordered = false;    // inner loops placed before the latency loops (AutoSA): floats may differ
  std::vector<int64_t> pe_grid;        // PEs along each space loop
  std::map<param_id, int64_t> param_values;  // the problem size it runs (padded when zero-padded)
  std::vector<io_group> groups;
  std::vector<io_network> networks;
  std::vector<module_kind> modules;    // PE first
  std::vector<fifo> fifos;
  std::vector<host_layout> layouts;
  std::vector<size_t> phase_loops;     // tile-order positions of the tile loops run on the host
  std::vector<std::vector<int64_t>> phases;  // their values, in host order ({{}} when none)
  program_node tiles;                  // the kernel's tile loops of one phase (t0..: phase ones are parameters)

  const module_kind& pe() const { return modules.front(); }
  int64_t pe_count() const;
};

/// How a loop of a module part's program runs in hardware. A loop whose iterator is a SIMD lane
/// iterator of the part (the `lane` of a vector port operation) is unrolled; a loop in which every
/// nested loop is a lane loop (an innermost loop, in particular) is pipelined at II = 1; any other
/// loop runs its iterations one after another. HLS code generation puts its pragmas by this rule
/// and the timed simulation (timed_simulation.hpp) charges cycles by it, so they cannot disagree.
enum class loop_kind { sequential, pipelined, unrolled };
std::string_view loop_kind_name(loop_kind k);
loop_kind classify_loop(const module_part& part, const program_node& loop);

/// Builds the architecture of design d at point p (the kernel's current param values are the
/// problem size). sadsl::error when the point is invalid for the design or the design needs what
/// the I/O construction does not support (it says what).
architecture build_architecture(const design& d, const architecture_point& p);

}  // namespace sadsl
