// ap_int bit-level behaviour: ranges, bits and concatenations as values and as assignment targets,
// shifts across 64-bit words, sign extension, wrap-around, strings and conversions.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <sstream>
#include <type_traits>
#include <vector>

#include <sadsl/sim/ap_int.h>

namespace {

template <int W, bool S>
std::vector<bool> bits_of(const ap_int_base<W, S>& x) {
  std::vector<bool> bits(W);
  for (int i = 0; i < W; ++i) bits[static_cast<std::size_t>(i)] = x[i];
  return bits;
}

template <int W>
ap_uint<W> random_bits(std::mt19937_64& rng) {
  ap_uint<W> x;
  for (int i = 0; i < W; ++i) x[i] = (rng() & 1) != 0;
  return x;
}

// Reads and writes random ranges of a W-bit value against a plain vector-of-bits model.
template <int W, bool S>
void check_random_ranges(std::mt19937_64& rng) {
  for (int round = 0; round < 300; ++round) {
    ap_int_base<W, S> x = random_bits<W>(rng);
    const int lo = static_cast<int>(rng() % W);
    const int hi = lo + static_cast<int>(rng() % (W - lo));
    const int len = hi - lo + 1;
    std::vector<bool> model = bits_of(x);

    const ap_uint<W> read = x.range(hi, lo);
    for (int i = 0; i < W; ++i) {
      const bool want = i < len && model[static_cast<std::size_t>(lo + i)];
      if (read[i] != want) FAIL("range(" << hi << ", " << lo << ") bit " << i << " of ap_int_base<" << W << ">");
    }
    REQUIRE(x(hi, lo) == read);

    const ap_uint<W> value = random_bits<W>(rng);
    x.range(hi, lo) = value;
    for (int i = 0; i < len; ++i) model[static_cast<std::size_t>(lo + i)] = value[i];
    REQUIRE(bits_of(x) == model);

    const unsigned long long small = rng();
    x(hi, lo) = small;
    for (int i = 0; i < len; ++i) model[static_cast<std::size_t>(lo + i)] = i < 64 && ((small >> i) & 1);
    REQUIRE(bits_of(x) == model);
  }
}

}  // namespace

TEST_CASE("ap_uint is a trivially copyable array of words", "[sim][ap_int]") {
  STATIC_REQUIRE(std::is_trivially_copyable<ap_uint<512>>::value);
  STATIC_REQUIRE(std::is_trivially_copyable<ap_int<33>>::value);
  STATIC_REQUIRE(sizeof(ap_uint<512>) == 64);
  STATIC_REQUIRE(sizeof(ap_uint<1024>) == 128);
  STATIC_REQUIRE(sizeof(ap_uint<65>) == 16);
  const ap_uint<512> zero;
  REQUIRE(zero.iszero());
  REQUIRE(zero.length() == 512);
}

TEST_CASE("ranges read and write the selected bits only", "[sim][ap_int]") {
  std::mt19937_64 rng(11);
  check_random_ranges<8, false>(rng);
  check_random_ranges<64, true>(rng);
  check_random_ranges<65, false>(rng);
  check_random_ranges<200, true>(rng);
  check_random_ranges<512, false>(rng);
  check_random_ranges<1024, true>(rng);
}

TEST_CASE("a range with hi < lo reverses the bits", "[sim][ap_int]") {
  ap_uint<8> x = 0x01;
  REQUIRE(x.range(0, 3) == 8);  // bit 0 lands in the top bit of the 4-bit value
  REQUIRE(x.range(3, 0) == 1);
  x = 0xF0;
  x.range(0, 3) = 1;  // the value's bit 0 goes to bit 3, bits 2..0 are cleared
  REQUIRE(x == 0xF8);
  ap_uint<130> w = 0;
  w[129] = 1;
  REQUIRE(w.range(0, 129) == 1);
  w.range(0, 129) = ap_uint<130>(2);  // value bit 1 -> bit 128
  REQUIRE(w[128]);
  REQUIRE(w.range(127, 0) == 0);
}

TEST_CASE("writing a range or the sign bit of an ap_int keeps its value consistent", "[sim][ap_int]") {
  ap_int<8> x = 1;
  x[7] = 1;
  REQUIRE(x == -127);
  REQUIRE(ap_int<16>(x) == -127);
  x.range(7, 4) = 0;
  REQUIRE(x == 1);
  ap_int<100> y = 0;
  y.range(99, 64) = 0xFFFFFFFFFULL;
  REQUIRE(y == -(ap_int<101>(1) << 64));
  REQUIRE(y.to_string(16) == "0xfffffffff0000000000000000");
  y.range(99, 99) = 0;
  REQUIRE(y > 0);
}

TEST_CASE("bits read and write through x[i]", "[sim][ap_int]") {
  ap_uint<70> x = 0;
  x[69] = true;
  x[3] = 5;  // any nonzero value sets the bit
  x[4] = x[3];
  REQUIRE(x[69]);
  REQUIRE(!x[68]);
  REQUIRE(x.range(5, 0) == 0x18);
  REQUIRE(~x[4] == false);
  x[4] = 0;
  REQUIRE(x.range(5, 0) == 0x08);
  const ap_uint<70> c = x;
  REQUIRE(c[69]);
  REQUIRE_THROWS_AS(x[70], std::out_of_range);
  REQUIRE_THROWS_AS(x.range(70, 0), std::out_of_range);
  REQUIRE_THROWS_WITH(x[-1], "ap_int: bit index -1 outside 0..69");
}

TEST_CASE("concatenation with the comma operator", "[sim][ap_int]") {
  ap_uint<32> hi = 0x12345678, lo = 0x9abcdef0;
  ap_uint<64> both = (hi, lo);
  REQUIRE(both == 0x123456789abcdef0ULL);
  STATIC_REQUIRE(decltype((hi, lo))::width == 64);

  ap_uint<4> a = 0xA;
  ap_uint<8> b = 0xBC;
  ap_int<4> d = -1;
  ap_uint<16> abd = (a, b, d);
  REQUIRE(abd == 0xABCF);

  // As an assignment target: the left operand takes the high bits.
  (hi, lo) = ap_uint<64>(0x1111222233334444ULL);
  REQUIRE(hi == 0x11112222);
  REQUIRE(lo == 0x33334444);
  (a, b, d) = 0x1234;
  REQUIRE(a == 0x1);
  REQUIRE(b == 0x23);
  REQUIRE(d == 4);

  // Temporaries and const values can be read.
  const ap_uint<8> k = 0x5A;
  REQUIRE((k, ap_uint<8>(b + 1)) == 0x5A24);

  // A range counts with the width of its variable (Vitis); cast it for an exact-width concatenation.
  ap_uint<16> word = 0xBEEF;
  STATIC_REQUIRE(decltype((word.range(7, 0), a))::width == 20);
  REQUIRE((word.range(7, 0), a) == 0xEF1);
  REQUIRE((ap_uint<8>(word.range(15, 8)), ap_uint<8>(word.range(7, 0))) == 0xBEEF);
  (word.range(7, 4), word.range(3, 0)) = ap_uint<32>(0x000A0005);  // 16 + 16 bits
  REQUIRE(word == 0xBEA5);

  // Bits concatenate as one-bit values.
  ap_uint<3> flags = 0;
  (flags[2], flags[1], flags[0]) = 5;
  REQUIRE(flags == 5);
  REQUIRE((flags[0], flags[2], flags[1]) == 6);

  // Concatenation of wide words.
  ap_uint<512> top = 0, bottom = 0;
  top[511] = 1;
  bottom[0] = 1;
  ap_uint<1024> wide = (top, bottom);
  REQUIRE(wide[1023]);
  REQUIRE(wide[0]);
  REQUIRE(wide.range(1022, 1) == 0);
  REQUIRE(lo.concat(hi) == 0x3333444411112222ULL);
}

TEST_CASE("shifts move bits across 64-bit word boundaries", "[sim][ap_int]") {
  const ap_uint<512> one = 1;
  for (int n = 0; n < 512; ++n) {
    const ap_uint<512> shifted = one << n;
    REQUIRE(shifted[n]);
    REQUIRE(shifted.range(511, 0) == (ap_uint<513>(1) << n));
    REQUIRE((shifted >> n) == 1);
  }
  REQUIRE((one << 512) == 0);
  ap_int<130> negative = -1;
  negative <<= 100;
  REQUIRE(negative.range(99, 0) == 0);
  REQUIRE((negative >> 90) == -1024);
  REQUIRE((negative >> 120) == -1);  // floor(-2^100 / 2^120)
  REQUIRE((negative >> 1000) == -1);
  const ap_uint<130> pattern = ap_uint<130>("3f0000000000000000000000000000000", 16);
  REQUIRE((pattern >> 63).to_string(16) == "0x7e000000000000000");  // 130-bit 0x3f << 124, down 63
}

TEST_CASE("sign and zero extension when widening", "[sim][ap_int]") {
  const ap_int<7> s = -5;
  REQUIRE(ap_int<64>(s).to_int64() == -5);
  REQUIRE(ap_int<200>(s) == -5);
  REQUIRE(ap_int<200>(s).to_string(16) == "0xfffffffffffffffffffffffffffffffffffffffffffffffffb");
  REQUIRE(ap_uint<9>(s) == 507);  // sign-extended, then read as unsigned
  REQUIRE(s.to_int() == -5);
  REQUIRE(s.to_int64() == -5);
  const int as_int = s;  // implicit conversion keeps the sign
  REQUIRE(as_int == -5);
  const ap_uint<7> u = 123;
  REQUIRE(ap_int<200>(u) == 123);
  REQUIRE(ap_int<7>(u) == -5);
  const ap_int<65> big_negative = ap_int<65>(-1) << 64;
  REQUIRE(ap_int<128>(big_negative).to_string(16) == "0xffffffffffffffff0000000000000000");
}

TEST_CASE("assignment wraps around to the target width", "[sim][ap_int]") {
  ap_uint<8> a = 300;
  REQUIRE(a == 44);
  ap_int<8> b = 200;
  REQUIRE(b == -56);
  ap_uint<4> c = -1;
  REQUIRE(c == 15);
  ap_int<65> d = ap_uint<128>(-1);
  REQUIRE(d == -1);
  a = ap_uint<8>(250) + ap_uint<8>(10);
  REQUIRE(a == 4);
  ap_uint<4> i = 14;
  ++i;
  ++i;
  REQUIRE(i == 0);
  --i;
  REQUIRE(i == 15);
  int iterations = 0;
  for (ap_uint<4> k = 0; k < 10; k++) ++iterations;
  REQUIRE(iterations == 10);
}

TEST_CASE("strings and printing", "[sim][ap_int]") {
  const ap_uint<96> wide("76543210fedcba9876543210", 16);
  REQUIRE(wide.to_string(16) == "0x76543210fedcba9876543210");
  REQUIRE(wide.to_string(10) == "36621017359603154166306058768");
  REQUIRE(ap_uint<96>("36621017359603154166306058768", 10) == wide);
  REQUIRE(ap_int<6>("101010", 2) == -22);
  REQUIRE(ap_int<6>("40", 8) == -32);
  REQUIRE(ap_int<6>("2A", 16) == -22);
  REQUIRE(ap_uint<16>("0b101") == 5);
  REQUIRE(ap_uint<16>("ff") == 255);  // no prefix, no radix: hexadecimal (documented Vitis rule)
  REQUIRE(ap_int<16>("-0x10") == -16);
  REQUIRE_THROWS_WITH(ap_uint<8>("12z", 10), "ap_int: invalid digit in \"12z\" for radix 10");

  REQUIRE(ap_uint<5>(5).to_string() == "0b101");
  REQUIRE(ap_int<8>(-3).to_string(10) == "-3");
  REQUIRE(ap_int<8>(-3).to_string(16) == "0xfd");
  REQUIRE(ap_int<8>(-3).to_string(16, true) == "-0x3");
  REQUIRE(ap_int<8>(-128).to_string(10) == "-128");
  REQUIRE(ap_uint<1>(0).to_string(10) == "0");
  const ap_uint<256> ten_pow_40 = ap_uint<256>("10000000000000000000000000000000000000000", 10);
  REQUIRE(ten_pow_40.to_string(10) == "10000000000000000000000000000000000000000");

  std::ostringstream out;
  out << ap_int<70>(-42) << ' ' << std::hex << ap_uint<12>(0xabc) << ' ' << std::showbase << ap_uint<12>(0xabc)
      << std::noshowbase << std::dec << ' ' << ap_uint<8>(200) << ' ' << ap_uint<16>(0x1234).range(11, 4);
  REQUIRE(out.str() == "-42 abc 0xabc 200 35");
}

TEST_CASE("conversions to and from built-in types", "[sim][ap_int]") {
  const ap_uint<40> x = 0x12345678ABULL;
  REQUIRE(x.to_uint64() == 0x12345678ABULL);
  REQUIRE(x.to_uint() == 0x345678ABu);
  REQUIRE(x.to_int64() == 0x12345678ABLL);
  REQUIRE(x.to_long() == 0x12345678ABL);
  REQUIRE(x.to_bool());
  REQUIRE(x.length() == 40);
  const ap_uint<32> u32 = 0xFFFFFFFFu;
  const unsigned long long widened = u32;  // through unsigned int, no sign extension
  REQUIRE(widened == 0xFFFFFFFFULL);
  int table[8] = {0, 10, 20, 30, 40, 50, 60, 70};
  const ap_uint<3> index = 6;
  REQUIRE(table[index] == 60);
  switch (index) {
    case 6: break;
    default: FAIL("switch on an ap_uint");
  }
  REQUIRE(ap_int<16>(-3.9) == -3);
  REQUIRE(ap_uint<8>(300.5) == 44);
  REQUIRE(ap_int<100>(-1e20).to_string(10) == "-100000000000000000000");
  REQUIRE(ap_int<100>(-1e20).to_double() == -1e20);
  REQUIRE(ap_uint<8>(true) == 1);
}

TEST_CASE("reductions and bit utilities", "[sim][ap_int]") {
  ap_uint<65> x = -1;
  REQUIRE(x.and_reduce());
  REQUIRE(x.xor_reduce());  // 65 ones
  x[64] = 0;
  REQUIRE(!x.and_reduce());
  REQUIRE(x.or_reduce());
  REQUIRE(!x.xor_reduce());
  REQUIRE(ap_int<65>(-1).xor_reduce());  // the sign extension above bit 64 does not count
  REQUIRE(ap_uint<65>(0).nor_reduce());
  ap_uint<10> r = 0x3;
  r.reverse();
  REQUIRE(r == 0x300);
  r.set(0);
  r.clear(9);
  r.invert(1);
  REQUIRE(r == 0x103);
  REQUIRE(r.test(8));
  REQUIRE(ap_int<9>(-1).sign());
}

TEST_CASE("floats travel through their bit patterns", "[sim][ap_int]") {
  // The pattern generated code uses: a union (supported by g++, clang++ and Vitis HLS) moves the
  // bits between a float and a 32-bit unsigned integer, ranges move them in and out of wide words.
  union float_bits {
    unsigned int u;
    float f;
  };
  ap_uint<512> word = 0;
  for (int i = 0; i < 16; ++i) {
    float_bits in;
    in.f = -1.25f * static_cast<float>(i) + 0.1f;
    word.range(32 * i + 31, 32 * i) = in.u;
  }
  for (int i = 0; i < 16; ++i) {
    float_bits out;
    out.u = word.range(32 * i + 31, 32 * i);
    const float want = -1.25f * static_cast<float>(i) + 0.1f;
    REQUIRE(std::memcmp(&out.f, &want, sizeof want) == 0);
    const ap_uint<32> lane = word(32 * i + 31, 32 * i);
    out.u = lane.to_uint();
    REQUIRE(std::memcmp(&out.f, &want, sizeof want) == 0);
  }
}
