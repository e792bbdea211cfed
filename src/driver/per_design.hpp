#pragma once
// Design-by-design work spread over threads. The isl objects of one context must stay on one
// thread, so a helper thread never touches the caller's designs: it makes its own copy of the
// kernel (kernel::with_own_context), enumerates the designs there, and works on the twin of each
// design it takes (the design with the same description, design::str()).
#include <cstddef>
#include <functional>
#include <vector>

#include "sadsl/compute/design.hpp"
#include "sadsl/compute/designs.hpp"

namespace sadsl::driver {

/// How many threads `threads` means for `count` items: 0 is one per hardware thread; never more
/// than the items, never less than one.
unsigned worker_count(unsigned threads, size_t count);

/// job(worker, index) once for each index < count, on up to `threads` threads (worker 0 is the
/// calling thread; the others work at the sizes a scoped_sizes set on it). The first error, in
/// index order, is rethrown once all are done.
void parallel_for(size_t count, unsigned threads, const std::function<void(unsigned worker, size_t index)>& job);

/// job(index, design) once for each of ds, on up to `threads` threads: the calling thread with
/// ds[index] itself, a helper with its twin in its own copy of the kernel (ds are designs(k,
/// options) of one kernel, or some of them; one without a twin is done on the calling thread, after
/// the others). The first error, in design order, is rethrown once all are done.
void for_each_design(const std::vector<design>& ds, const design_options& options, unsigned threads,
                     const std::function<void(size_t index, const design& d)>& job);

}  // namespace sadsl::driver
