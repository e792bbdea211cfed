// sadsl simulation headers: the operators of ap_int (see ap_int.h).
//
// Result types follow Vitis' rules so that sums and products are exact: an operation between two
// operands (ap values, references, or built-in integers counted at their own width) yields a value
// wide enough for every result, and only assignment to a variable wraps to the variable's width.
//   a + b : max(W1 + (S2 && !S1), W2 + (S1 && !S2)) + 1 bits, signed if either is signed
//   a - b : the same width, always signed
//   a * b : W1 + W2 bits, signed if either is signed
//   a / b : W1 + S2 bits, signed if either is signed
//   a % b : min(W1, W2 + (S1 && !S2)) bits, signed like a
//   a & b, a | b, a ^ b : max(W1 + (S2 && !S1), W2 + (S1 && !S2)) bits, signed if either is signed
//   a << n, a >> n : the type of a (bits shifted out are lost); a negative n shifts the other way
//   comparisons : exact comparisons of the mathematical values
// The operators live in namespace sadsl::sim and are found by argument-dependent lookup, so they
// only take part when an ap operand is involved.
#ifndef SADSL_SIM_AP_OPS_H
#define SADSL_SIM_AP_OPS_H

#include <ostream>
#include <string>

#include "sadsl_ap_refs.h"

namespace sadsl {
namespace sim {
namespace ap_detail {

template <class A, class B>
struct binop {
  static constexpr int w1 = operand<A>::width;
  static constexpr int w2 = operand<B>::width;
  static constexpr bool s1 = operand<A>::is_signed;
  static constexpr bool s2 = operand<B>::is_signed;
  static constexpr bool any_signed = s1 || s2;
  // Width that holds both operands in one signedness: an unsigned operand gains a bit when the
  // other is signed.
  static constexpr int common_w = max_w(w1 + (s2 && !s1 ? 1 : 0), w2 + (s1 && !s2 ? 1 : 0));
  typedef ap_int_base<clamp_w(common_w + 1), any_signed> plus_type;
  typedef ap_int_base<clamp_w(common_w + 1), true> minus_type;
  typedef ap_int_base<clamp_w(w1 + w2), any_signed> mult_type;
  typedef ap_int_base<clamp_w(w1 + (s2 ? 1 : 0)), any_signed> div_type;
  typedef ap_int_base<min_w(w1, w2 + (s1 && !s2 ? 1 : 0)), s1> mod_type;
  typedef ap_int_base<clamp_w(common_w), any_signed> logic_type;
  // Division works on signed values one bit wider than both operands, where magnitudes fit.
  typedef ap_int_base<clamp_w(max_w(w1, w2) + 1), true> div_work_type;
};

template <class A, class B>
struct binop_enable
    : std::enable_if<(operand<A>::is_ap || operand<B>::is_ap) && operand<A>::is_operand && operand<B>::is_operand,
                     int> {};

template <class A, class N>
struct shift_enable : std::enable_if<operand<A>::is_ap && operand<N>::is_operand, int> {};

// Signed comparison of two normalized values of the same type: the top word carries the sign.
template <int W, bool S>
inline int compare(const ap_int_base<W, S>& a, const ap_int_base<W, S>& b) {
  const int n = ap_int_base<W, S>::num_words;
  if (S) {
    const std::int64_t ta = static_cast<std::int64_t>(a.words_[n - 1]);
    const std::int64_t tb = static_cast<std::int64_t>(b.words_[n - 1]);
    if (ta != tb) return ta < tb ? -1 : 1;
    return apw::compare_unsigned(a.words_, b.words_, n - 1);
  }
  return apw::compare_unsigned(a.words_, b.words_, n);
}

// Quotient and remainder truncated toward zero, as C++ integer division; dividing by zero throws
// std::domain_error (a C++ integer division by zero would be undefined behaviour).
template <int W>
inline void divide(const ap_int_base<W, true>& a, const ap_int_base<W, true>& b, ap_int_base<W, true>* q,
                   ap_int_base<W, true>* r) {
  typedef ap_int_base<W, true> T;
  if (b.iszero()) throw std::domain_error("ap_int: division by zero");
  if (T::num_words == 1) {
    // W <= 64 and operands are one bit wider than their sources, so no INT64_MIN / -1 overflow.
    const std::int64_t x = static_cast<std::int64_t>(a.words_[0]), y = static_cast<std::int64_t>(b.words_[0]);
    q->words_[0] = static_cast<apw::word>(x / y);
    r->words_[0] = static_cast<apw::word>(x % y);
    return;
  }
  const bool neg_a = a.sign(), neg_b = b.sign();
  T ma(a), mb(b);
  if (neg_a) apw::negate(ma.words_, ma.words_, T::num_words);
  if (neg_b) apw::negate(mb.words_, mb.words_, T::num_words);
  apw::divmod_unsigned(q->words_, r->words_, ma.words_, mb.words_, T::num_words);
  if (neg_a != neg_b) apw::negate(q->words_, q->words_, T::num_words);
  if (neg_a) apw::negate(r->words_, r->words_, T::num_words);
  q->normalize_();
  r->normalize_();
}

}  // namespace ap_detail

#define SADSL_AP_WORDWISE_OP(OP, RESULT, WORD_FN)                                                     \
  template <class A, class B, typename ap_detail::binop_enable<A, B>::type = 0>                       \
  inline typename ap_detail::binop<A, B>::RESULT operator OP(const A& a, const B& b) {                \
    typedef typename ap_detail::binop<A, B>::RESULT R;                                                \
    const R x(a), y(b);                                                                               \
    R r{ap_detail::no_init_t{}};                                                                      \
    apw::WORD_FN(r.words_, x.words_, y.words_, R::num_words);                                         \
    r.normalize_();                                                                                   \
    return r;                                                                                         \
  }

SADSL_AP_WORDWISE_OP(+, plus_type, add)
SADSL_AP_WORDWISE_OP(-, minus_type, sub)
SADSL_AP_WORDWISE_OP(*, mult_type, mul_low)
SADSL_AP_WORDWISE_OP(&, logic_type, bit_and)
SADSL_AP_WORDWISE_OP(|, logic_type, bit_or)
SADSL_AP_WORDWISE_OP(^, logic_type, bit_xor)
#undef SADSL_AP_WORDWISE_OP

template <class A, class B, typename ap_detail::binop_enable<A, B>::type = 0>
inline typename ap_detail::binop<A, B>::div_type operator/(const A& a, const B& b) {
  typedef typename ap_detail::binop<A, B>::div_work_type T;
  T q(ap_detail::no_init_t{}), r(ap_detail::no_init_t{});
  ap_detail::divide(T(a), T(b), &q, &r);
  return typename ap_detail::binop<A, B>::div_type(q);
}

template <class A, class B, typename ap_detail::binop_enable<A, B>::type = 0>
inline typename ap_detail::binop<A, B>::mod_type operator%(const A& a, const B& b) {
  typedef typename ap_detail::binop<A, B>::div_work_type T;
  T q(ap_detail::no_init_t{}), r(ap_detail::no_init_t{});
  ap_detail::divide(T(a), T(b), &q, &r);
  return typename ap_detail::binop<A, B>::mod_type(r);
}

#define SADSL_AP_COMPARE_OP(OP)                                                                      \
  template <class A, class B, typename ap_detail::binop_enable<A, B>::type = 0>                       \
  inline bool operator OP(const A& a, const B& b) {                                                   \
    typedef typename ap_detail::binop<A, B>::logic_type C;                                            \
    return ap_detail::compare(C(a), C(b)) OP 0;                                                       \
  }

SADSL_AP_COMPARE_OP(==)
SADSL_AP_COMPARE_OP(!=)
SADSL_AP_COMPARE_OP(<)
SADSL_AP_COMPARE_OP(<=)
SADSL_AP_COMPARE_OP(>)
SADSL_AP_COMPARE_OP(>=)
#undef SADSL_AP_COMPARE_OP

// Shift distances beyond any width act like the width itself, so huge or wide counts are safe.
template <class N>
inline long long shift_distance(const N& n) {
  return typename ap_detail::operand<N>::value_type(n).saturated_(1LL << 20);
}

template <class A, class N, typename ap_detail::shift_enable<A, N>::type = 0>
inline typename ap_detail::operand<A>::value_type operator<<(const A& a, const N& n) {
  typename ap_detail::operand<A>::value_type r(a);
  r.shift_left_(shift_distance(n));
  return r;
}

template <class A, class N, typename ap_detail::shift_enable<A, N>::type = 0>
inline typename ap_detail::operand<A>::value_type operator>>(const A& a, const N& n) {
  typename ap_detail::operand<A>::value_type r(a);
  r.shift_right_(shift_distance(n));
  return r;
}

// Unary operators on references work on their (unsigned) value.
template <int W, bool S>
inline ap_int_base<ap_detail::clamp_w(W + 1), true> operator-(const ap_range_ref<W, S>& r) {
  return -r.get();
}
template <class Hi, class Lo>
inline ap_int_base<ap_detail::clamp_w(ap_concat_ref<Hi, Lo>::width + 1), true> operator-(
    const ap_concat_ref<Hi, Lo>& c) {
  return -c.get();
}

#define SADSL_AP_COMPOUND_OP(OP)                                                                     \
  template <int W, bool S>                                                                            \
  template <class T, ap_detail::enable_if_operand<T>>                                                 \
  inline ap_int_base<W, S>& ap_int_base<W, S>::operator OP##=(const T& v) {                           \
    return *this = ap_int_base<W, S>(*this OP v);                                                     \
  }

SADSL_AP_COMPOUND_OP(+)
SADSL_AP_COMPOUND_OP(-)
SADSL_AP_COMPOUND_OP(*)
SADSL_AP_COMPOUND_OP(/)
SADSL_AP_COMPOUND_OP(%)
SADSL_AP_COMPOUND_OP(&)
SADSL_AP_COMPOUND_OP(|)
SADSL_AP_COMPOUND_OP(^)
#undef SADSL_AP_COMPOUND_OP

template <int W, bool S>
template <class T, ap_detail::enable_if_operand<T>>
inline ap_int_base<W, S>& ap_int_base<W, S>::operator<<=(const T& n) {
  shift_left_(shift_distance(n));
  return *this;
}

template <int W, bool S>
template <class T, ap_detail::enable_if_operand<T>>
inline ap_int_base<W, S>& ap_int_base<W, S>::operator>>=(const T& n) {
  shift_right_(shift_distance(n));
  return *this;
}

// Digits of the value: decimal is signed for ap_int; binary, octal and hexadecimal show the W-bit
// pattern with a 0b/0o/0x prefix unless `sign` asks for a signed magnitude.
template <int W, bool S>
std::string ap_int_base<W, S>::to_string(signed char radix, bool sign_in_radix) const {
  if (radix != 2 && radix != 8 && radix != 10 && radix != 16)
    throw std::invalid_argument("ap_int: to_string radix must be 2, 8, 10 or 16");
  const bool negative = sign() && (radix == 10 || sign_in_radix);
  apw::word magnitude[num_words];
  if (negative) {
    apw::negate(magnitude, words_, num_words);
  } else {
    for (int i = 0; i < num_words; ++i) magnitude[i] = words_[i];
    if (W % 64 != 0) magnitude[num_words - 1] &= apw::low_mask(W % 64);  // the W-bit pattern
  }
  std::string digits;
  if (radix == 10) {
    // Peel 19 decimal digits at a time: 10^19 is the largest power of ten in a word.
    const apw::word chunk = 10000000000000000000ULL;
    while (true) {
      apw::word rest = apw::divmod_word(magnitude, magnitude, num_words, chunk);
      const bool last = apw::is_zero(magnitude, num_words);
      for (int i = 0; i < 19 && (!last || rest != 0 || i == 0); ++i) {
        digits.push_back(static_cast<char>('0' + rest % 10));
        rest /= 10;
      }
      if (last) break;
    }
  } else {
    const int bits_per_digit = radix == 2 ? 1 : radix == 8 ? 3 : 4;
    int top = W;
    while (top > 1 && !apw::get_bit(magnitude, top - 1)) --top;
    for (int lo = 0; lo < top; lo += bits_per_digit) {
      const int len = lo + bits_per_digit <= W ? bits_per_digit : W - lo;
      const apw::word d = apw::get_field64(magnitude, num_words, lo, len);
      digits.push_back("0123456789abcdef"[d]);
    }
    digits += radix == 2 ? "b0" : radix == 8 ? "o0" : "x0";
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

// Decimal by default; std::hex and std::oct print the W-bit pattern (with std::showbase, a prefix).
template <int W, bool S>
inline std::ostream& operator<<(std::ostream& os, const ap_int_base<W, S>& v) {
  const std::ios_base::fmtflags base = os.flags() & std::ios_base::basefield;
  if (base == std::ios_base::hex || base == std::ios_base::oct) {
    std::string s = v.to_string(base == std::ios_base::hex ? 16 : 8, false).substr(2);
    if (os.flags() & std::ios_base::showbase) s = (base == std::ios_base::hex ? "0x" : "0") + s;
    return os << s;
  }
  return os << v.to_string(10);
}
template <int W, bool S>
inline std::ostream& operator<<(std::ostream& os, const ap_range_ref<W, S>& r) {
  return os << r.get();
}
template <class Hi, class Lo>
inline std::ostream& operator<<(std::ostream& os, const ap_concat_ref<Hi, Lo>& c) {
  return os << c.get();
}

}  // namespace sim
}  // namespace sadsl

#endif  // SADSL_SIM_AP_OPS_H
