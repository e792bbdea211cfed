// ap_int arithmetic against the exact reference for operands of different widths and signedness:
// neighbours across 64-bit word boundaries, and narrow against wide.
#include "ap_check.hpp"

using namespace sim_test;

TEST_CASE("ap_int arithmetic matches an exact reference, mixed widths and signs", "[sim][ap_int]") {
  std::mt19937_64 rng(271828);
  checker c;
  check_mixed_signs<1, 7>(rng, c);
  check_mixed_signs<8, 16>(rng, c);
  check_mixed_signs<31, 32>(rng, c);
  check_mixed_signs<33, 31>(rng, c);
  check_mixed_signs<63, 64>(rng, c);
  check_mixed_signs<65, 64>(rng, c);
  check_mixed_signs<64, 127>(rng, c);
  check_mixed_signs<128, 65>(rng, c);
  check_mixed_signs<256, 33>(rng, c);
  check_mixed_signs<7, 512>(rng, c);
  check_mixed_signs<1024, 65>(rng, c);
  check_mixed_signs<512, 1024>(rng, c);
  CHECK(c.failures == 0);
  CHECK(c.checks > 15000);
}
