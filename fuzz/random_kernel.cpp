// Fuzz target: the random-kernel builder of the tests (tests/support/random_kernel.hpp) steered by
// the input's bytes: a kernel built through the DSL is refused with a sadsl::error or runs, in
// the isl-based interpreter with its instance self-check, exactly as the naive evaluator runs it.
#include "../tests/support/random_kernel.hpp"
#include "fuzz_support.hpp"

using namespace sadsl;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::optional<kernel> k;
  std::optional<program> p;
  if (fuzz::refused([&] {
        k = testing::random_kernel_builder(testing::byte_choices(data, size)).make();
        p = build_program(*k);
      }))
    return 0;
  buffers by_isl(*k), naive(*k);
  by_isl.randomize_inputs(size);
  naive.randomize_inputs(size);
  run(*p, p->schedule(), by_isl, run_options{{}, true});
  testing::run_naive(*k, naive);
  fuzz::fuzz_check(by_isl == naive, "the interpreter agrees with the naive evaluator");
  return 0;
}
