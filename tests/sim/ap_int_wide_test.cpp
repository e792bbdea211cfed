// ap_int arithmetic against the exact reference for widths from 63 to 1024 bits (the operands of
// packed memory words), split from ap_int_arith_test.cpp so the two compile in parallel.
#include "ap_check.hpp"

using namespace sim_test;

TEST_CASE("ap_int arithmetic matches an exact reference, equal widths from 63 to 1024", "[sim][ap_int]") {
  std::mt19937_64 rng(314159);
  checker c;
  check_all_signs<63, 63>(rng, c);
  check_all_signs<64, 64>(rng, c);
  check_all_signs<65, 65>(rng, c);
  check_all_signs<127, 127>(rng, c);
  check_all_signs<128, 128>(rng, c);
  check_all_signs<256, 256>(rng, c);
  check_all_signs<512, 512>(rng, c);
  check_all_signs<1024, 1024>(rng, c);
  CHECK(c.failures == 0);
  CHECK(c.checks > 20000);
}
