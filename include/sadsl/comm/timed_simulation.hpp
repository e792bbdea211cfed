#pragma once
// The timed simulation: the fourth oracle, for the performance models. It runs an architecture
// exactly as the executor does (executor.hpp: the same processes, FIFOs, outputs and checks) and
// gives every operation a cycle by the rules below, which the compiler-built performance models
// follow too (docs/comm.md, "Timed simulation", has them with worked examples).
//
//   - Clocks. Every module instance has its own clock, 0 when a phase starts. Phases run one
//     after another: a phase lasts until its last process finishes (the max over processes of
//     their finish cycle), and the run's cycles are the sum of the phases'.
//   - Loops. classify_loop (architecture.hpp), the rule HLS code generation puts its pragmas by:
//     lane loops are unrolled, a loop whose nested loops are all lane loops is pipelined, other
//     loops are sequential. Loop control costs nothing.
//   - Units. The operations happen in units, all of a unit's operations at its issue cycle: one
//     iteration of a pipelined loop (its whole body, unrolled lane loops included), or one
//     execution of a user node outside any pipelined loop. A unit is issued at the process's
//     clock unless a FIFO or DRAM rule delays it (a stall: everything after it shifts); then the
//     clock becomes issue + II inside a pipelined loop, issue + 1 outside. When a pipelined loop
//     exits (also after zero iterations), the clock advances by pipeline_depth. User nodes without
//     operations (none in the generated code) cost nothing; a user node whose operations are all
//     guarded off still costs its cycle.
//   - FIFOs. A token written at cycle c can be read from cycle c + fifo_latency. The n-th write
//     into a FIFO of depth D (n >= D) is issued no earlier than the cycle the (n - D)-th token
//     was read, plus 1.
//   - DRAM. Each module instance's DRAM port keeps a real-valued clock P, 0 when a phase starts.
//     The accesses of a unit (reads and writes alike), in operation order, each of b bytes:
//     P = max(c, P + b / dram_bytes_per_cycle), where c is the cycle the unit could issue by its
//     clock and the FIFO rules; the unit is issued at max(c, ceil(P)). So a port moves at most its
//     bandwidth, an idle port does not save bandwidth for later, and a fresh port delivers its
//     first access after b / dram_bytes_per_cycle cycles.
//   - Double buffering. A module with previous-tile parts (fill / feed of a double buffer) runs,
//     at tile step n, the current-tile parts of tile n and the previous-tile parts of tile n - 1
//     concurrently, as HLS overlaps the two calls on the ping and pong copies: both start when
//     step n - 1 has ended, and step n ends at the max of their ends (the last step runs only the
//     previous-tile parts of the last tile). Parts on the same side run one after another, and a
//     module without previous-tile parts runs all its parts one after another.
//
// The cycles are a pure function of the architecture and the options (the functional run is the
// executor's, deterministic). A network the executor finds deadlocked is reported the same way;
// so is one whose timing cannot be ordered (a unit waiting, through the FIFO rules, for its own
// issue cycle), naming who waits for the cycle of which token.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/comm/executor.hpp"
#include "sadsl/poly/interpreter.hpp"

namespace sadsl {

struct timing_options {
  int64_t ii = 1;                    // initiation interval of every pipelined loop
  int64_t pipeline_depth = 0;        // cycles added when a pipelined loop exits (0: Odyssey's model)
  double dram_bytes_per_cycle = 64;  // per DRAM port (one 512-bit word per cycle)
  int64_t fifo_latency = 1;          // a token written at cycle c can be read at cycle c + fifo_latency
  /// Record timed_result::fifo_peak (keeps the cycle of every write and read of a phase).
  bool fifo_peaks = false;
  /// Record timed_result::trace: when each module instance started and finished in each phase.
  bool trace = false;
};

/// What one module instance did in one phase (timing_options::trace). Cycles count from the
/// phase's start, as the clocks do.
struct instance_timing {
  std::string name;        // as the executor names it: "PE[0,1]", "A_IO_L3_in"
  int kind = -1;           // index into architecture::modules
  int64_t start = -1;      // issue cycle of its first unit; -1 when it ran none in this phase
  int64_t finish = 0;      // the cycle its last part ended (0 when it ran none)
  int64_t units = 0;       // units issued (pipelined iterations and user nodes outside them)
  int64_t fifo_stall = 0;  // cycles its units were delayed by FIFOs
  int64_t dram_stall = 0;  // ... and by its DRAM port
  int64_t dram_accesses = 0;  // words it read from or wrote to DRAM
};

/// One phase of a traced run: the host's tile-loop values (architecture::phases), its cycles and
/// every module instance, in the architecture's order (kinds, then instances).
struct phase_timing {
  std::vector<int64_t> phase;
  int64_t start = 0;  // the run's cycle the phase began at (the phases before it, summed)
  int64_t cycles = 0;
  std::vector<instance_timing> instances;
};

/// What execute() reports (deadlock, FIFO tokens, DRAM bytes, phases), and the cycles.
struct timed_result : execution_result {
  int64_t cycles = 0;                       // the whole run: all phases, one after the other
  std::vector<int64_t> phase_cycles;
  /// Per module instance (named as the executor names it, "PE[0,1]"): the cycle of the run it
  /// finished at (the phases before the last one it ran in included; 0 when it never ran), the
  /// cycles its units were delayed by FIFOs and by its DRAM port (summed over phases and over
  /// both sides of a double buffer).
  std::map<std::string, int64_t> finish, stalled, dram_stalled;
  /// Per module kind ("PE", "A_IO_L2_in"): the latest finish of its instances.
  std::map<std::string, int64_t> kind_finish;
  /// With timing_options::fifo_peaks, per FIFO: the most tokens it held at once (written, not yet
  /// read), the new one included, over all phases. A FIFO at its depth made its writer wait;
  /// one whose depth is at least the peak a run with deep FIFOs gives never does.
  std::map<std::string, int64_t> fifo_peak;
  /// With timing_options::trace, per phase: each module instance's start, finish and work.
  std::vector<phase_timing> trace;
};

/// Runs architecture a on `data` as execute() does (same outputs, same checks) and times it.
/// sadsl::error when an option is out of range (ii >= 1, pipeline_depth >= 0, fifo_latency >= 0,
/// dram_bytes_per_cycle > 0).
timed_result simulate_timed(const architecture& a, buffers& data, const timing_options& options = {});

/// A traced run as a timeline in the Trace Event Format (JSON that Perfetto and chrome://tracing
/// open): one track per module instance, one slice per phase it ran in (from its first unit to
/// its finish, in cycles shown as microseconds), and a track of the phases. Empty trace: no
/// slices. Deterministic: the same run gives the same text.
std::string timeline_json(const architecture& a, const timed_result& r);

}  // namespace sadsl
