// sadsl simulation headers: the class behind ap_int<W> and ap_uint<W> (see ap_int.h).
//
// ap_int_base<W, S> holds a W-bit two's complement integer (S: signed) in a fixed array of 64-bit
// words: no heap, trivially copyable, so moving packed 512-bit words costs a 64-byte copy.
// ap_int<W> and ap_uint<W> are aliases of ap_int_base<W, true> and ap_int_base<W, false>.
#ifndef SADSL_SIM_AP_BASE_H
#define SADSL_SIM_AP_BASE_H

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sadsl_ap_words.h"

// Widest value the simulation types hold: results of operations widen (a product of two 1024-bit
// values has 2048 bits) and are clamped here, which only matters past 4096 bits.
#ifndef SADSL_AP_MAX_W
#define SADSL_AP_MAX_W 4096
#endif

namespace sadsl {
namespace sim {

template <int W, bool S>
class ap_int_base;
template <int W, bool S>
class ap_range_ref;
template <int W, bool S>
class ap_bit_ref;
template <class Hi, class Lo>
class ap_concat_ref;

namespace ap_detail {

constexpr int min_w(int a, int b) { return a < b ? a : b; }
constexpr int max_w(int a, int b) { return a > b ? a : b; }
constexpr int clamp_w(int w) { return w > SADSL_AP_MAX_W ? SADSL_AP_MAX_W : w; }

// Tag for the constructor that leaves the words uninitialized (operators overwrite all of them).
struct no_init_t {};

// Index errors are thrown out of line so that the hot bit and range accessors stay small enough to
// inline.
#if defined(__GNUC__)
#define SADSL_AP_COLD __attribute__((noinline, cold))
#else
#define SADSL_AP_COLD
#endif
[[noreturn]] SADSL_AP_COLD inline void throw_bad_bit(int index, int width) {
  throw std::out_of_range("ap_int: bit index " + std::to_string(index) + " outside 0.." + std::to_string(width - 1));
}
[[noreturn]] SADSL_AP_COLD inline void throw_bad_range(int hi, int lo, int width) {
  throw std::out_of_range("ap_int: range(" + std::to_string(hi) + ", " + std::to_string(lo) + ") outside 0.." +
                          std::to_string(width - 1));
}

// What every operand of the ap operators looks like: its width, signedness and the ap type its value
// converts to. Built-in integers count with their own width (int: 32 bits, long long: 64), as in
// Vitis; range and bit references and concatenations are unsigned.
template <class T, class Enable = void>
struct operand {
  static constexpr bool is_ap = false;
  static constexpr bool is_operand = false;
};
template <class T>
struct operand<T, typename std::enable_if<std::is_integral<T>::value>::type> {
  static constexpr bool is_ap = false;
  static constexpr bool is_operand = true;
  static constexpr int width = std::is_same<T, bool>::value ? 1 : static_cast<int>(8 * sizeof(T));
  static constexpr bool is_signed = std::is_signed<T>::value;
  typedef ap_int_base<width, is_signed> value_type;
};
template <int W, bool S>
struct operand<ap_int_base<W, S>> {
  static constexpr bool is_ap = true;
  static constexpr bool is_operand = true;
  static constexpr int width = W;
  static constexpr bool is_signed = S;
  typedef ap_int_base<W, S> value_type;
};
template <int W, bool S>
struct operand<ap_range_ref<W, S>> {
  static constexpr bool is_ap = true;
  static constexpr bool is_operand = true;
  // As in Vitis, a range counts with the width of the variable it selects from, zero-extended.
  static constexpr int width = W;
  static constexpr bool is_signed = false;
  typedef ap_int_base<W, false> value_type;
};
template <int W, bool S>
struct operand<ap_bit_ref<W, S>> {
  static constexpr bool is_ap = true;
  static constexpr bool is_operand = true;
  static constexpr int width = 1;
  static constexpr bool is_signed = false;
  typedef ap_int_base<1, false> value_type;
};
template <class Hi, class Lo>
struct operand<ap_concat_ref<Hi, Lo>> {
  static constexpr bool is_ap = true;
  static constexpr bool is_operand = true;
  static constexpr int width = Hi::width + Lo::width;
  static constexpr bool is_signed = false;
  typedef ap_int_base<width, false> value_type;
};

template <class T>
using enable_if_operand = typename std::enable_if<operand<T>::is_operand, int>::type;

// The low 64 bits of an operand's value (two's complement), without building a wide temporary.
template <class T>
inline apw::word low_word(const T& v, typename std::enable_if<std::is_integral<T>::value>::type* = 0) {
  return static_cast<apw::word>(v);
}
template <int W, bool S>
inline apw::word low_word(const ap_int_base<W, S>& v) {
  return v.words_[0];
}
template <int W, bool S>
inline apw::word low_word(const ap_range_ref<W, S>& r) {
  return r.low64();
}
template <int W, bool S>
inline apw::word low_word(const ap_bit_ref<W, S>& b) {
  return b.get() ? 1 : 0;
}
template <class Hi, class Lo>
inline apw::word low_word(const ap_concat_ref<Hi, Lo>& c) {
  return c.get().words_[0];
}

}  // namespace ap_detail

template <int W, bool S>
class ap_int_base {
  static_assert(W >= 1 && W <= SADSL_AP_MAX_W, "ap_int/ap_uint width must be in 1..4096");

 public:
  static constexpr int width = W;
  static constexpr bool is_signed = S;
  static constexpr int num_words = apw::words_for(W);

  // The value, little-endian; the bits above W repeat the sign (ap_int) or are zero (ap_uint).
  // Public so the free operators and the references can work on it; not part of the Vitis API.
  apw::word words_[num_words];

  // Zero, so simulations are deterministic (Vitis leaves default-constructed values unspecified).
  ap_int_base() : words_() {}
  explicit ap_int_base(ap_detail::no_init_t) {}
  ap_int_base(const ap_int_base&) = default;
  ap_int_base& operator=(const ap_int_base&) = default;

  template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
  ap_int_base(T v) {
    const apw::word low = static_cast<apw::word>(v);
    // A signed built-in arrives sign-extended to 64 bits, so bit 63 says how to continue upwards.
    const apw::word fill = std::is_signed<T>::value ? static_cast<apw::word>(static_cast<std::int64_t>(low) >> 63) : 0;
    words_[0] = low;
    for (int i = 1; i < num_words; ++i) words_[i] = fill;
    normalize_();
  }

  // Truncates toward zero like a C cast, then wraps to W bits; NaN gives 0.
  template <class T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
  ap_int_base(T v) {
    set_from_double_(static_cast<double>(v));
  }

  template <int W2, bool S2>
  ap_int_base(const ap_int_base<W2, S2>& o) {
    apw::extend(words_, num_words, o.words_, ap_int_base<W2, S2>::num_words, S2);
    normalize_();
  }

  template <int W2, bool S2>
  ap_int_base(const ap_range_ref<W2, S2>& r) {
    if (num_words == 1) {
      words_[0] = r.low64();
      normalize_();
    } else {
      *this = ap_int_base(r.get());
    }
  }

  template <int W2, bool S2>
  ap_int_base(const ap_bit_ref<W2, S2>& b) : ap_int_base(static_cast<unsigned>(b.get())) {}

  template <class Hi, class Lo>
  ap_int_base(const ap_concat_ref<Hi, Lo>& c) : ap_int_base(c.get()) {}

  // Digits in the given radix (2, 8, 10 or 16), with an optional sign and 0b/0o/0x prefix; the value
  // wraps to W bits. Without a radix a prefix chooses it, else the digits are hexadecimal (as the
  // Vitis documentation specifies). Invalid digits throw std::invalid_argument.
  ap_int_base(const char* text) { set_from_string_(text, 0); }
  ap_int_base(const char* text, signed char radix) { set_from_string_(text, radix); }

  // Implicit conversion to the built-in integer that holds W bits (wider values are truncated to
  // 64 bits, as in Vitis): lets ap values index arrays, drive loops and switch statements.
  typedef typename std::conditional<
      S, typename std::conditional<(W <= 32), int, long long>::type,
      typename std::conditional<(W <= 32), unsigned int, unsigned long long>::type>::type builtin_type;
  operator builtin_type() const { return static_cast<builtin_type>(words_[0]); }

  int length() const { return W; }
  int to_int() const { return static_cast<int>(words_[0]); }
  unsigned to_uint() const { return static_cast<unsigned>(words_[0]); }
  long to_long() const { return static_cast<long>(words_[0]); }
  unsigned long to_ulong() const { return static_cast<unsigned long>(words_[0]); }
  long long to_int64() const { return static_cast<long long>(words_[0]); }
  unsigned long long to_uint64() const { return static_cast<unsigned long long>(words_[0]); }
  bool to_bool() const { return !apw::is_zero(words_, num_words); }
  double to_double() const;
  float to_float() const { return static_cast<float>(to_double()); }
  std::string to_string(signed char radix = 2, bool sign = false) const;

  // Bit and range access. A range with hi < lo reads and writes the bits in reverse order (Vitis).
  // Indices outside 0..W-1 throw std::out_of_range.
  ap_range_ref<W, S> range(int hi, int lo) { return ap_range_ref<W, S>(this, hi, lo); }
  // Reading a range of a const value goes through the same reference type; writing through it is
  // the caller's error, as with Vitis' own const_cast-based references.
  ap_range_ref<W, S> range(int hi, int lo) const {
    return ap_range_ref<W, S>(const_cast<ap_int_base*>(this), hi, lo);
  }
  ap_range_ref<W, S> range() { return range(W - 1, 0); }
  ap_range_ref<W, S> range() const { return range(W - 1, 0); }
  ap_range_ref<W, S> operator()(int hi, int lo) { return range(hi, lo); }
  ap_range_ref<W, S> operator()(int hi, int lo) const { return range(hi, lo); }
  ap_bit_ref<W, S> operator[](int i) { return ap_bit_ref<W, S>(this, i); }
  bool operator[](int i) const { return test(i); }
  ap_bit_ref<W, S> bit(int i) { return ap_bit_ref<W, S>(this, i); }

  bool test(int i) const {
    check_index_(i);
    return apw::get_bit(words_, i);
  }
  bool get_bit(int i) const { return test(i); }
  void set_bit(int i, bool v) {
    check_index_(i);
    apw::set_bit(words_, i, v);
    if (i == W - 1) normalize_();
  }
  void set(int i) { set_bit(i, true); }
  void clear(int i) { set_bit(i, false); }
  void invert(int i) { set_bit(i, !test(i)); }

  bool and_reduce() const {
    ap_int_base all_ones(-1);
    return apw::compare_unsigned(words_, all_ones.words_, num_words) == 0;
  }
  bool or_reduce() const { return to_bool(); }
  bool xor_reduce() const {
    apw::word x = 0;
    for (int i = 0; i < num_words; ++i) x ^= words_[i];
    // Bits above W are copies of the sign (or zero) and would spoil the parity: mask them.
    if (W % 64 != 0) x ^= words_[num_words - 1] & ~apw::low_mask(W % 64);
    int parity = 0;
    for (; x != 0; x &= x - 1) parity ^= 1;
    return parity != 0;
  }
  bool nand_reduce() const { return !and_reduce(); }
  bool nor_reduce() const { return !or_reduce(); }
  bool xnor_reduce() const { return !xor_reduce(); }
  bool iszero() const { return !to_bool(); }
  bool sign() const { return apw::is_negative(words_, num_words, S); }

  void reverse() {
    apw::reverse_low_bits(words_, num_words, W);
    normalize_();
  }

  ap_int_base& operator++() {
    for (int i = 0; i < num_words; ++i)
      if (++words_[i] != 0) break;
    normalize_();
    return *this;
  }
  ap_int_base& operator--() {
    for (int i = 0; i < num_words; ++i)
      if (words_[i]-- != 0) break;
    normalize_();
    return *this;
  }
  ap_int_base operator++(int) {
    ap_int_base old(*this);
    ++*this;
    return old;
  }
  ap_int_base operator--(int) {
    ap_int_base old(*this);
    --*this;
    return old;
  }

  // Unary minus widens by one bit and is signed, so -x is exact (Vitis).
  ap_int_base<ap_detail::clamp_w(W + 1), true> operator-() const {
    ap_int_base<ap_detail::clamp_w(W + 1), true> r(*this);
    apw::negate(r.words_, r.words_, r.num_words);
    r.normalize_();
    return r;
  }
  ap_int_base operator+() const { return *this; }
  ap_int_base operator~() const {
    ap_int_base r(ap_detail::no_init_t{});
    for (int i = 0; i < num_words; ++i) r.words_[i] = ~words_[i];
    r.normalize_();
    return r;
  }
  bool operator!() const { return !to_bool(); }

  // Compound assignment computes the exact (widened) result and wraps it to W bits.
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_int_base& operator+=(const T& v);
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_int_base& operator-=(const T& v);
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_int_base& operator*=(const T& v);
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_int_base& operator/=(const T& v);
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_int_base& operator%=(const T& v);
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_int_base& operator&=(const T& v);
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_int_base& operator|=(const T& v);
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_int_base& operator^=(const T& v);
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_int_base& operator<<=(const T& n);
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_int_base& operator>>=(const T& n);

  // The W2-bit concatenation {this, other} as a value (Vitis' concat method).
  template <int W2, bool S2>
  ap_int_base<ap_detail::clamp_w(W + W2), false> concat(const ap_int_base<W2, S2>& low) const {
    ap_int_base<ap_detail::clamp_w(W + W2), false> r(ap_int_base<W, false>(*this));
    r.shift_left_(W2);
    const ap_int_base<W2, false> low_bits(low);
    for (int i = 0; i < low_bits.num_words && i < r.num_words; ++i) r.words_[i] |= low_bits.words_[i];
    return r;
  }

  // Shift helpers used by the operators: the width stays W, bits shifted out are lost, a right
  // shift of a signed value replicates the sign.
  void shift_left_(long long n) {
    if (n < 0) return shift_right_(-n);
    apw::shift_left(words_, words_, num_words, n);
    normalize_();
  }
  void shift_right_(long long n) {
    if (n < 0) return shift_left_(-n);
    apw::shift_right(words_, words_, num_words, n, apw::fill_word(words_, num_words, S));
    normalize_();
  }

  // The value clamped to [-limit, limit]: a shift by more than the width acts like a shift by it.
  long long saturated_(long long limit) const {
    const bool negative = sign();
    const apw::word fill = negative ? ~apw::word(0) : 0;
    for (int i = 1; i < num_words; ++i)
      if (words_[i] != fill) return negative ? -limit : limit;
    if (negative) {
      const long long v = static_cast<long long>(words_[0]);
      if (num_words > 1 && v >= 0) return -limit;  // below -2^63
      return v < -limit ? -limit : v;
    }
    return words_[0] > static_cast<apw::word>(limit) ? limit : static_cast<long long>(words_[0]);
  }

  void normalize_() { apw::normalize(words_, num_words, W, S); }

 private:
  void check_index_(int i) const {
    if (i < 0 || i >= W) ap_detail::throw_bad_bit(i, W);
  }
  void set_from_double_(double d);
  void set_from_string_(const char* text, int radix);
};

template <int W, bool S>
constexpr int ap_int_base<W, S>::width;
template <int W, bool S>
constexpr bool ap_int_base<W, S>::is_signed;
template <int W, bool S>
constexpr int ap_int_base<W, S>::num_words;

template <int W, bool S>
void ap_int_base<W, S>::set_from_double_(double d) {
  apw::set_zero(words_, num_words);
  if (!(d == d) || std::isinf(d)) return;  // NaN and infinities have no integer value
  const bool negative = d < 0;
  const double magnitude = std::trunc(negative ? -d : d);
  if (magnitude < 9223372036854775808.0) {
    words_[0] = static_cast<apw::word>(static_cast<std::int64_t>(magnitude));
  } else {
    // magnitude = mantissa * 2^(exponent - 53) with a 53-bit integer mantissa; the shift wraps.
    int exponent = 0;
    const double fraction = std::frexp(magnitude, &exponent);
    words_[0] = static_cast<apw::word>(std::ldexp(fraction, 53));
    apw::shift_left(words_, words_, num_words, exponent - 53);
  }
  if (negative) apw::negate(words_, words_, num_words);
  normalize_();
}

template <int W, bool S>
double ap_int_base<W, S>::to_double() const {
  apw::word magnitude[num_words];
  const bool negative = sign();
  if (negative)
    apw::negate(magnitude, words_, num_words);
  else
    for (int i = 0; i < num_words; ++i) magnitude[i] = words_[i];
  double r = 0;
  for (int i = num_words - 1; i >= 0; --i) r = r * 18446744073709551616.0 + static_cast<double>(magnitude[i]);
  return negative ? -r : r;
}

template <int W, bool S>
void ap_int_base<W, S>::set_from_string_(const char* text, int radix) {
  if (text == nullptr) throw std::invalid_argument("ap_int: null string");
  const char* p = text;
  while (*p == ' ' || *p == '\t') ++p;
  bool negative = false;
  if (*p == '-' || *p == '+') negative = *p++ == '-';
  if (p[0] == '0' && p[1] != '\0') {
    const char c = static_cast<char>(p[1] | 0x20);
    const int prefix_radix = c == 'x' ? 16 : c == 'b' ? 2 : c == 'o' ? 8 : c == 'd' ? 10 : 0;
    if (prefix_radix != 0 && (radix == 0 || radix == prefix_radix)) {
      radix = prefix_radix;
      p += 2;
    }
  }
  if (radix == 0) radix = 16;
  if (radix != 2 && radix != 8 && radix != 10 && radix != 16)
    throw std::invalid_argument("ap_int: radix must be 2, 8, 10 or 16");
  apw::set_zero(words_, num_words);
  if (*p == '\0') throw std::invalid_argument(std::string("ap_int: no digits in \"") + text + "\"");
  for (; *p != '\0'; ++p) {
    const char c = *p;
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0 || digit >= radix)
      throw std::invalid_argument(std::string("ap_int: invalid digit in \"") + text + "\" for radix " + std::to_string(radix));
    // words = words * radix + digit, wrapping at the storage width (normalized below).
    apw::word carry = static_cast<apw::word>(digit);
    for (int i = 0; i < num_words; ++i) {
      apw::word hi;
      const apw::word lo = apw::mul_wide(words_[i], static_cast<apw::word>(radix), &hi);
      words_[i] = lo + carry;
      carry = hi + (words_[i] < lo);
    }
  }
  if (negative) apw::negate(words_, words_, num_words);
  normalize_();
}

}  // namespace sim
}  // namespace sadsl

#endif  // SADSL_SIM_AP_BASE_H
