// Shared helpers of the ap_int arithmetic tests: seeded random operands and a checker that
// compares every operator with the exact reference (exact_int.hpp).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "exact_int.hpp"

namespace sim_test {


// Special values (0, 1, all ones, the top bit alone, all but the top bit) or random bits of a
// random length, so that small divisors and carries across words both occur.
template <int W, bool S>
ap_int_base<W, S> random_value(std::mt19937_64& rng) {
  ap_int_base<W, S> x;
  switch (rng() % 8) {
    case 0: return ap_int_base<W, S>(0);
    case 1: return ap_int_base<W, S>(1);
    case 2: return ap_int_base<W, S>(-1);
    case 3: x[W - 1] = 1; return x;
    case 4: x = -1; x[W - 1] = 0; return x;
    default: {
      const int len = 1 + static_cast<int>(rng() % W);
      for (int lo = 0; lo < len; lo += 64) x.range(std::min(lo + 63, len - 1), lo) = static_cast<unsigned long long>(rng());
      if (S && rng() % 2 == 0) x = ap_int_base<W, S>(-x);
      return x;
    }
  }
}

// Infinite-precision two's complement bitwise operation: both operands wrapped to `width` bits
// (wide enough to hold them plus a sign bit), combined bit by bit, read back as signed.
template <class Op>
exact bitwise(const exact& a, const exact& b, int width, Op op) {
  const exact ua = a.wrap(width, false), ub = b.wrap(width, false);
  std::vector<std::uint32_t> limbs(static_cast<std::size_t>((width + 31) / 32), 0);
  for (int i = 0; i < width; ++i)
    if (op(ua.bit(i), ub.bit(i))) limbs[static_cast<std::size_t>(i / 32)] |= std::uint32_t(1) << (i % 32);
  return exact::from_limbs(limbs).wrap(width, true);
}

struct checker {
  int failures = 0;
  long checks = 0;
  std::string context;

  template <int W, bool S>
  void value(const ap_int_base<W, S>& got, const exact& want, const char* what) {
    ++checks;
    const exact g = to_exact(got);
    if (g != want && ++failures <= 10)
      FAIL_CHECK(what << " with " << context << ": got " << g.hex() << ", want " << want.hex() << " (result ap_int_base<"
                      << W << ", " << S << ">)");
  }
  void truth(bool got, bool want, const char* what) {
    ++checks;
    if (got != want && ++failures <= 10) FAIL_CHECK(what << " with " << context << ": got " << got);
  }
};

template <int W1, bool S1, int W2, bool S2>
void check_pair(std::mt19937_64& rng, int rounds, checker& c) {
  for (int round = 0; round < rounds; ++round) {
    const ap_int_base<W1, S1> a = random_value<W1, S1>(rng);
    const ap_int_base<W2, S2> b = random_value<W2, S2>(rng);
    const exact ea = to_exact(a), eb = to_exact(b);
    std::ostringstream ctx;
    ctx << "a = " << ea.hex() << " : ap_int_base<" << W1 << ", " << S1 << ">, b = " << eb.hex() << " : ap_int_base<"
        << W2 << ", " << S2 << ">";
    c.context = ctx.str();

    // Results are exact by their widths; assignment wraps to the target.
    c.value(a + b, ea + eb, "a + b");
    c.value(a - b, ea - eb, "a - b");
    c.value(a * b, ea * eb, "a * b");
    if (!eb.is_zero()) {
      c.value(a / b, ea / eb, "a / b");
      c.value(a % b, ea % eb, "a % b");
    }
    const int bw = std::max(W1, W2) + 2;
    c.value(a & b, bitwise(ea, eb, bw, [](bool x, bool y) { return x && y; }), "a & b");
    c.value(a | b, bitwise(ea, eb, bw, [](bool x, bool y) { return x || y; }), "a | b");
    c.value(a ^ b, bitwise(ea, eb, bw, [](bool x, bool y) { return x != y; }), "a ^ b");
    c.truth(a == b, ea == eb, "a == b");
    c.truth(a != b, ea != eb, "a != b");
    c.truth(a < b, ea < eb, "a < b");
    c.truth(a <= b, !(eb < ea), "a <= b");
    c.truth(a > b, eb < ea, "a > b");
    c.truth(a >= b, !(ea < eb), "a >= b");
    c.value(-a, -ea, "-a");
    c.value(~a, (-ea - exact(1)).wrap(W1, S1), "~a");

    const int n = static_cast<int>(rng() % (W1 + 3));  // also past the width
    c.value(a << n, (ea * exact::pow2(n)).wrap(W1, S1), "a << n");
    c.value(a >> n, ea.floor_div_pow2(n), "a >> n");
    c.value(a << ap_uint<12>(n), (ea * exact::pow2(n)).wrap(W1, S1), "a << ap_uint n");
    c.value(a >> -n, (ea * exact::pow2(n)).wrap(W1, S1), "a >> -n");
    c.value(a << ap_int<13>(-n), ea.floor_div_pow2(n), "a << ap_int -n");

    const ap_int_base<W1, S1> product = a * b;
    c.value(product, (ea * eb).wrap(W1, S1), "wrapping assignment of a * b");
    const ap_int_base<W2, !S2> sum = a + b;
    c.value(sum, (ea + eb).wrap(W2, !S2), "wrapping assignment of a + b");

    ap_int_base<W1, S1> x = a;
    x += b;
    c.value(x, (ea + eb).wrap(W1, S1), "x += b");
    x = a;
    x -= b;
    c.value(x, (ea - eb).wrap(W1, S1), "x -= b");
    x = a;
    x *= b;
    c.value(x, (ea * eb).wrap(W1, S1), "x *= b");
    if (!eb.is_zero()) {
      x = a;
      x /= b;
      c.value(x, (ea / eb).wrap(W1, S1), "x /= b");
      x = a;
      x %= b;
      c.value(x, (ea % eb).wrap(W1, S1), "x %= b");
    }
    x = a;
    x ^= b;
    c.value(x, bitwise(ea, eb, bw, [](bool p, bool q) { return p != q; }).wrap(W1, S1), "x ^= b");
    x = a;
    ++x;
    c.value(x, (ea + exact(1)).wrap(W1, S1), "++x");
    x = a;
    x--;
    c.value(x, (ea - exact(1)).wrap(W1, S1), "x--");
    x = a;
    x <<= n;
    c.value(x, (ea * exact::pow2(n)).wrap(W1, S1), "x <<= n");
  }
}

template <int W1, int W2>
void check_all_signs(std::mt19937_64& rng, checker& c) {
  const int rounds = std::max(W1, W2) <= 128 ? 40 : 12;
  check_pair<W1, false, W2, false>(rng, rounds, c);
  check_pair<W1, false, W2, true>(rng, rounds, c);
  check_pair<W1, true, W2, false>(rng, rounds, c);
  check_pair<W1, true, W2, true>(rng, rounds, c);
}

template <int W1, int W2>
void check_mixed_signs(std::mt19937_64& rng, checker& c) {
  const int rounds = std::max(W1, W2) <= 128 ? 40 : 12;
  check_pair<W1, false, W2, true>(rng, rounds, c);
  check_pair<W1, true, W2, false>(rng, rounds, c);
}

}  // namespace sim_test
