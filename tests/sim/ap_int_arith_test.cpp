// ap_int arithmetic checked against independent references: an unbounded integer (exact_int.hpp)
// at every width, and __int128 for widths up to 64. Random operands are seeded, so runs repeat.
#include <catch2/catch.hpp>

#include <type_traits>

#include "ap_check.hpp"

namespace {

using namespace sim_test;

template <int W, bool S, class T>
void check_with_builtin(std::mt19937_64& rng, checker& c) {
  for (int round = 0; round < 40; ++round) {
    const ap_int_base<W, S> a = random_value<W, S>(rng);
    T t = static_cast<T>(rng() >> (rng() % 64));
    if (std::is_signed<T>::value && rng() % 2) t = static_cast<T>(-t);
    const exact ea = to_exact(a);
    const exact et = std::is_signed<T>::value ? exact(static_cast<long long>(t))
                                              : exact::from_unsigned(static_cast<unsigned long long>(t));
    std::ostringstream ctx;
    ctx << "a = " << ea.hex() << " : ap_int_base<" << W << ", " << S << ">, t = " << et.hex() << " of "
        << sizeof(T) << " bytes";
    c.context = ctx.str();
    c.value(a + t, ea + et, "a + t");
    c.value(t - a, et - ea, "t - a");
    c.value(a * t, ea * et, "a * t");
    c.value(t * a, ea * et, "t * a");
    if (!et.is_zero()) c.value(a / t, ea / et, "a / t");
    if (!ea.is_zero()) c.value(t % a, et % ea, "t % a");
    c.truth(a < t, ea < et, "a < t");
    c.truth(t < a, et < ea, "t < a");
    c.truth(a == t, ea == et, "a == t");
    c.truth(t != a, et != ea, "t != a");
    const ap_int_base<W, S> assigned = t;
    c.value(assigned, et.wrap(W, S), "construction from t");
  }
}

// __int128 reference for operands of at most 64 bits, read through to_int64/to_uint64. Results
// (up to 128 bits) are compared as bit patterns modulo 2^128, computed in unsigned __int128 so that
// the reference itself never overflows.
typedef unsigned __int128 u128;

template <int W, bool S>
u128 pattern128(const ap_int_base<W, S>& v) {
  static_assert(W <= 128, "");
  u128 r = 0;
  for (int i = W - 1; i >= 0; --i) r = r * 2 + (v[i] ? 1 : 0);
  if (S && v[W - 1] && W < 128) r -= static_cast<u128>(1) << (W < 128 ? W : 0);  // sign-extend to 128 bits
  return r;
}

template <int W1, bool S1, int W2, bool S2>
void check_pair_i128(std::mt19937_64& rng, int& failures) {
  static_assert(W1 <= 64 && W2 <= 64, "products must fit in 128 bits");
  for (int round = 0; round < 200; ++round) {
    const ap_int_base<W1, S1> a = random_value<W1, S1>(rng);
    const ap_int_base<W2, S2> b = random_value<W2, S2>(rng);
    const __int128 x = S1 ? static_cast<__int128>(a.to_int64()) : static_cast<__int128>(a.to_uint64());
    const __int128 y = S2 ? static_cast<__int128>(b.to_int64()) : static_cast<__int128>(b.to_uint64());
    const u128 ux = static_cast<u128>(x), uy = static_cast<u128>(y);
    bool ok = pattern128(a + b) == ux + uy && pattern128(a - b) == ux - uy && pattern128(a * b) == ux * uy &&
              (a < b) == (x < y) && (a == b) == (x == y) && pattern128(a & b) == (ux & uy) &&
              pattern128(a | b) == (ux | uy);
    if (y != 0) ok = ok && pattern128(a / b) == static_cast<u128>(x / y) && pattern128(a % b) == static_cast<u128>(x % y);
    if (!ok && ++failures <= 10)
      FAIL_CHECK("__int128 mismatch for ap_int_base<" << W1 << ", " << S1 << "> = " << static_cast<long long>(x)
                                                       << " and ap_int_base<" << W2 << ", " << S2
                                                       << "> = " << static_cast<long long>(y));
  }
}

template <int W1, int W2>
void check_i128_all_signs(std::mt19937_64& rng, int& failures) {
  check_pair_i128<W1, false, W2, false>(rng, failures);
  check_pair_i128<W1, false, W2, true>(rng, failures);
  check_pair_i128<W1, true, W2, false>(rng, failures);
  check_pair_i128<W1, true, W2, true>(rng, failures);
}

template <class T, int W, bool S>
constexpr bool is_ap = std::is_same<T, ap_int_base<W, S>>::value;

}  // namespace

TEST_CASE("ap_int result types follow the Vitis width rules", "[sim][ap_int]") {
  ap_uint<8> u8;
  ap_int<8> s8;
  ap_uint<4> u4;
  ap_int<4> s4;
  STATIC_REQUIRE(is_ap<decltype(u8 + u8), 9, false>);
  STATIC_REQUIRE(is_ap<decltype(u8 + s4), 10, true>);  // wider unsigned + narrower signed: two more bits
  STATIC_REQUIRE(is_ap<decltype(s8 + u4), 9, true>);
  STATIC_REQUIRE(is_ap<decltype(u8 - u8), 9, true>);   // a difference is always signed
  STATIC_REQUIRE(is_ap<decltype(u8 * s4), 12, true>);
  STATIC_REQUIRE(is_ap<decltype(s8 / s4), 9, true>);   // -128 / -1 needs a ninth bit
  STATIC_REQUIRE(is_ap<decltype(u8 / u4), 8, false>);
  STATIC_REQUIRE(is_ap<decltype(s8 % u4), 5, true>);
  STATIC_REQUIRE(is_ap<decltype(u8 % s8), 8, false>);
  STATIC_REQUIRE(is_ap<decltype(u8 & s4), 9, true>);
  STATIC_REQUIRE(is_ap<decltype(u8 + 1), 33, true>);   // int counts as ap_int<32>
  STATIC_REQUIRE(is_ap<decltype(u8 * 1ULL), 72, false>);
  STATIC_REQUIRE(is_ap<decltype(u8 << 3), 8, false>);  // shifts keep the left operand's type
  STATIC_REQUIRE(is_ap<decltype(s8 >> u4), 8, true>);
  STATIC_REQUIRE(is_ap<decltype(-u8), 9, true>);
  STATIC_REQUIRE(is_ap<decltype(~u8), 8, false>);
  STATIC_REQUIRE(is_ap<decltype(ap_uint<1024>() * ap_uint<1024>()), 2048, false>);
  STATIC_REQUIRE(std::is_same<ap_uint<512>, ap_int_base<512, false>>::value);
}

TEST_CASE("ap_int arithmetic matches an exact reference, equal widths up to 33", "[sim][ap_int]") {
  std::mt19937_64 rng(20240611);
  checker c;
  check_all_signs<1, 1>(rng, c);
  check_all_signs<7, 7>(rng, c);
  check_all_signs<8, 8>(rng, c);
  check_all_signs<16, 16>(rng, c);
  check_all_signs<31, 31>(rng, c);
  check_all_signs<32, 32>(rng, c);
  check_all_signs<33, 33>(rng, c);
  CHECK(c.failures == 0);
  CHECK(c.checks > 20000);
}

TEST_CASE("ap_int arithmetic with built-in integers", "[sim][ap_int]") {
  std::mt19937_64 rng(7);
  checker c;
  check_with_builtin<8, false, int>(rng, c);
  check_with_builtin<8, true, unsigned>(rng, c);
  check_with_builtin<33, false, long long>(rng, c);
  check_with_builtin<64, true, unsigned long long>(rng, c);
  check_with_builtin<65, true, short>(rng, c);
  check_with_builtin<127, false, signed char>(rng, c);
  check_with_builtin<512, true, int>(rng, c);
  check_with_builtin<16, false, bool>(rng, c);
  CHECK(c.failures == 0);
}

TEST_CASE("ap_int arithmetic matches __int128 up to 64 bits", "[sim][ap_int]") {
  std::mt19937_64 rng(99);
  int failures = 0;
  check_i128_all_signs<1, 1>(rng, failures);
  check_i128_all_signs<7, 8>(rng, failures);
  check_i128_all_signs<16, 16>(rng, failures);
  check_i128_all_signs<31, 32>(rng, failures);
  check_i128_all_signs<32, 33>(rng, failures);
  check_i128_all_signs<63, 64>(rng, failures);
  check_i128_all_signs<64, 64>(rng, failures);
  check_i128_all_signs<1, 64>(rng, failures);
  CHECK(failures == 0);
}

TEST_CASE("ap_int division by zero throws", "[sim][ap_int]") {
  const ap_uint<8> a = 5, zero = 0;
  REQUIRE_THROWS_WITH(a / zero, "ap_int: division by zero");
  REQUIRE_THROWS_WITH(ap_uint<200>(7) % 0, "ap_int: division by zero");
}
