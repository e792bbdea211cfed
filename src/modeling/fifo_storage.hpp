#pragma once
// The storage of the FIFOs the architecture deepens along partial-sum chains
// (comm/fifo_depths.hpp): 2 + h x min(tokens per tile, hop) places for the FIFO from an input
// module into a PE h partial-sum hops behind the chain's first PE, summed over h.
#include <functional>
#include <vector>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/modeling/symbolic_architecture.hpp"
#include "symbols.hpp"

namespace sadsl::modeling {

struct fifo_storage {
  expr bram18k = 0;  ///< fifo_bram18k of every deepened FIFO
  expr ff = 0;       ///< fifo_ff beyond what the FIFO had at depth 2
};

/// `a` is the template architecture, `modules` the symbolic module kinds (their ports in a's
/// order), `hops` the wavefront hop per space dim (pe_pipeline.hpp: along a partial-sum chain
/// the partial sum's lifetime, comm's partial_sum_hop), `tokens(k)` the tokens per tile of input
/// module kind k's PE-side part (comm's tokens_per_tile, symbolic). sadsl::error for partial sums
/// along two space loops.
fifo_storage deep_fifo_storage(const architecture& a, const symbols& s, const std::vector<symbolic_module>& modules,
                               const std::vector<expr>& hops, const std::function<expr(int kind)>& tokens);

/// fifo_bram18k and fifo_ff (modeling/performance_model.hpp) of `bits`-wide tokens and `depth`
/// places, as expressions.
expr fifo_bram18k_of(const expr& bits, const expr& depth);
expr fifo_ff_of(const expr& bits, const expr& depth);

/// fifo_bram18k_of(bits, 2 + h x step) and fifo_ff_of(bits, 2 + h x step) - fifo_ff_of(bits, 2)
/// summed over h = lo..hi, for integral values with step >= 1: a sum whose terms are a rounded
/// quotient (compiled without a loop) and a closed form.
expr deep_fifos_bram18k(const expr& bits, const expr& step, const expr& lo, const expr& hi);
expr deep_fifos_ff(const expr& bits, const expr& step, const expr& lo, const expr& hi);

}  // namespace sadsl::modeling
