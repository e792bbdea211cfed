// sadsl simulation headers: bit, range and concatenation references of ap_int (see ap_int.h).
//
// x[i], x.range(hi, lo), x(hi, lo) and (a, b) return proxy objects that read the selected bits when
// used as values and write them when assigned to, as in Vitis.
#ifndef SADSL_SIM_AP_REFS_H
#define SADSL_SIM_AP_REFS_H

#include <utility>

#include "sadsl_ap_base.h"

namespace sadsl {
namespace sim {

template <int W, bool S>
class ap_range_ref {
 public:
  ap_range_ref(ap_int_base<W, S>* target, int hi, int lo) : target_(target), hi_(hi), lo_(lo) {
    if (hi < 0 || lo < 0 || hi >= W || lo >= W) ap_detail::throw_bad_range(hi, lo, W);
  }
  ap_range_ref(const ap_range_ref&) = default;

  int length() const { return (hi_ >= lo_ ? hi_ - lo_ : lo_ - hi_) + 1; }

  // The selected bits, zero-extended to the width of the variable.
  ap_int_base<W, false> get() const {
    ap_int_base<W, false> r;
    const int len = length();
    const int low = hi_ >= lo_ ? lo_ : hi_;
    if (len <= 64)
      r.words_[0] = apw::get_field64(target_->words_, target_->num_words, low, len);
    else
      apw::get_field(r.words_, r.num_words, target_->words_, target_->num_words, low, len);
    if (hi_ < lo_) apw::reverse_low_bits(r.words_, r.num_words, len);
    return r;
  }

  // The low 64 bits of get(), cheaply for the common short, ascending range.
  apw::word low64() const {
    const int len = length();
    if (hi_ >= lo_ && len <= 64) return apw::get_field64(target_->words_, target_->num_words, lo_, len);
    return get().words_[0];
  }

  operator unsigned long long() const { return low64(); }

  // Writes the low length() bits of the value; the rest of the variable is unchanged.
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_range_ref& operator=(const T& v) {
    const int len = length();
    if (hi_ >= lo_ && len <= 64) {
      apw::set_field64(target_->words_, target_->num_words, lo_, len, ap_detail::low_word(v));
    } else {
      ap_int_base<W, false> bits(v);
      if (hi_ < lo_) apw::reverse_low_bits(bits.words_, bits.num_words, len);
      apw::set_field(target_->words_, target_->num_words, hi_ >= lo_ ? lo_ : hi_, len, bits.words_);
    }
    target_->normalize_();
    return *this;
  }
  ap_range_ref& operator=(const ap_range_ref& o) { return *this = o.get(); }

  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_range_ref& operator+=(const T& v) { return *this = get() + v; }
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_range_ref& operator-=(const T& v) { return *this = get() - v; }
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_range_ref& operator&=(const T& v) { return *this = get() & v; }
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_range_ref& operator|=(const T& v) { return *this = get() | v; }
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_range_ref& operator^=(const T& v) { return *this = get() ^ v; }

  ap_int_base<W, false> operator~() const {
    ap_int_base<W, false> r = get();
    // Only the selected bits are complemented: the value is length() bits wide.
    for (int i = 0; i < length(); ++i) apw::set_bit(r.words_, i, !apw::get_bit(r.words_, i));
    return r;
  }

  int to_int() const { return static_cast<int>(low64()); }
  unsigned to_uint() const { return static_cast<unsigned>(low64()); }
  long to_long() const { return static_cast<long>(low64()); }
  unsigned long to_ulong() const { return static_cast<unsigned long>(low64()); }
  long long to_int64() const { return static_cast<long long>(low64()); }
  unsigned long long to_uint64() const { return low64(); }
  bool to_bool() const { return get().to_bool(); }
  bool and_reduce() const {
    const ap_int_base<W, false> v = get();
    for (int i = 0; i < length(); ++i)
      if (!apw::get_bit(v.words_, i)) return false;
    return true;
  }
  bool or_reduce() const { return to_bool(); }
  bool xor_reduce() const { return get().xor_reduce(); }
  std::string to_string(signed char radix = 2) const { return get().to_string(radix); }

 private:
  ap_int_base<W, S>* target_;
  int hi_;
  int lo_;
};

template <int W, bool S>
class ap_bit_ref {
 public:
  ap_bit_ref(ap_int_base<W, S>* target, int index) : target_(target), index_(index) {
    if (index < 0 || index >= W) ap_detail::throw_bad_bit(index, W);
  }
  ap_bit_ref(const ap_bit_ref&) = default;

  bool get() const { return apw::get_bit(target_->words_, index_); }
  operator bool() const { return get(); }
  bool to_bool() const { return get(); }
  int length() const { return 1; }

  // Any nonzero value sets the bit (bool conversion), so x[i] = flag and x[i] = 1 both work.
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_bit_ref& operator=(const T& v) {
    return set_(typename ap_detail::operand<T>::value_type(v).to_bool());
  }
  ap_bit_ref& operator=(const ap_bit_ref& o) { return set_(o.get()); }

  bool operator~() const { return !get(); }
  void flip() { set_(!get()); }

 private:
  ap_bit_ref& set_(bool b) {
    apw::set_bit(target_->words_, index_, b);
    if (index_ == W - 1) target_->normalize_();  // the sign bit of an ap_int changes the extension
    return *this;
  }
  ap_int_base<W, S>* target_;
  int index_;
};

namespace ap_detail {

// The parts of a concatenation. A named, non-const ap variable is held by pointer so the
// concatenation can be assigned to; a const or temporary value is copied and makes the
// concatenation read-only; references are held by value (they point into their variable).
template <int W, bool S>
struct lvalue_part {
  static constexpr int width = W;
  ap_int_base<W, S>* target;
  ap_int_base<W, false> get() const { return ap_int_base<W, false>(*target); }
  void set(const ap_int_base<W, false>& v) { *target = ap_int_base<W, S>(v); }
};
template <int W>
struct value_part {
  static constexpr int width = W;
  ap_int_base<W, false> value;
  ap_int_base<W, false> get() const { return value; }
  // No set(): assigning to a concatenation that contains a temporary does not compile.
};
template <int W, bool S>
struct range_part {
  static constexpr int width = W;
  ap_range_ref<W, S> ref;
  ap_int_base<W, false> get() const { return ref.get(); }
  void set(const ap_int_base<W, false>& v) { ref = v; }
};
template <int W, bool S>
struct bit_part {
  static constexpr int width = 1;
  ap_bit_ref<W, S> ref;
  ap_int_base<1, false> get() const { return ap_int_base<1, false>(ref.get() ? 1 : 0); }
  void set(const ap_int_base<1, false>& v) { ref = (v.words_[0] & 1) != 0; }
};
template <class Hi, class Lo>
struct concat_part {
  static constexpr int width = Hi::width + Lo::width;
  ap_concat_ref<Hi, Lo> ref;
  ap_int_base<width, false> get() const { return ref.get(); }
  void set(const ap_int_base<width, false>& v) { ref = v; }
};

template <class T, bool IsModifiableLvalue>
struct part_of_impl {};
template <int W, bool S>
struct part_of_impl<ap_int_base<W, S>, true> {
  typedef lvalue_part<W, S> type;
  static type make(ap_int_base<W, S>& v) { return type{&v}; }
};
template <int W, bool S>
struct part_of_impl<ap_int_base<W, S>, false> {
  typedef value_part<W> type;
  static type make(const ap_int_base<W, S>& v) { return type{ap_int_base<W, false>(v)}; }
};
template <int W, bool S, bool L>
struct part_of_impl<ap_range_ref<W, S>, L> {
  typedef range_part<W, S> type;
  static type make(const ap_range_ref<W, S>& r) { return type{r}; }
};
template <int W, bool S, bool L>
struct part_of_impl<ap_bit_ref<W, S>, L> {
  typedef bit_part<W, S> type;
  static type make(const ap_bit_ref<W, S>& b) { return type{b}; }
};
template <class Hi, class Lo, bool L>
struct part_of_impl<ap_concat_ref<Hi, Lo>, L> {
  typedef concat_part<Hi, Lo> type;
  static type make(const ap_concat_ref<Hi, Lo>& c) { return type{c}; }
};

// A (forwarding-reference deduced) argument type -> its part.
template <class A>
struct part_of
    : part_of_impl<typename std::decay<A>::type,
                   std::is_lvalue_reference<A>::value && !std::is_const<typename std::remove_reference<A>::type>::value> {};

template <class T>
struct is_concat_operand : std::integral_constant<bool, operand<T>::is_ap> {};

}  // namespace ap_detail

template <class Hi, class Lo>
class ap_concat_ref {
 public:
  static constexpr int width = Hi::width + Lo::width;
  static_assert(width <= SADSL_AP_MAX_W, "concatenation wider than 4096 bits");

  ap_concat_ref(const Hi& hi, const Lo& lo) : hi_(hi), lo_(lo) {}
  ap_concat_ref(const ap_concat_ref&) = default;

  ap_int_base<width, false> get() const {
    ap_int_base<width, false> r(hi_.get());
    r.shift_left_(Lo::width);
    const ap_int_base<Lo::width, false> low = lo_.get();
    for (int i = 0; i < low.num_words; ++i) r.words_[i] |= low.words_[i];
    return r;
  }
  operator unsigned long long() const { return get().words_[0]; }
  int length() const { return width; }
  unsigned long long to_uint64() const { return get().words_[0]; }
  long long to_int64() const { return static_cast<long long>(get().words_[0]); }
  unsigned to_uint() const { return static_cast<unsigned>(get().words_[0]); }
  int to_int() const { return static_cast<int>(get().words_[0]); }

  // The high part takes the top Hi::width bits, the low part the rest (Vitis).
  template <class T, ap_detail::enable_if_operand<T> = 0>
  ap_concat_ref& operator=(const T& v) {
    ap_int_base<width, false> bits(v);
    lo_.set(ap_int_base<Lo::width, false>(bits));
    bits.shift_right_(Lo::width);
    hi_.set(ap_int_base<Hi::width, false>(bits));
    return *this;
  }
  ap_concat_ref& operator=(const ap_concat_ref& o) { return *this = o.get(); }

 private:
  Hi hi_;
  Lo lo_;
};

template <class Hi, class Lo>
constexpr int ap_concat_ref<Hi, Lo>::width;

// (a, b): the concatenation of two ap values, ranges, bits or concatenations, a in the high bits.
// Only ap operands take part, so the comma between built-in expressions keeps its meaning.
template <class A, class B,
          typename std::enable_if<ap_detail::is_concat_operand<typename std::decay<A>::type>::value &&
                                      ap_detail::is_concat_operand<typename std::decay<B>::type>::value,
                                  int>::type = 0>
inline ap_concat_ref<typename ap_detail::part_of<A>::type, typename ap_detail::part_of<B>::type> operator,(A&& a,
                                                                                                           B&& b) {
  return ap_concat_ref<typename ap_detail::part_of<A>::type, typename ap_detail::part_of<B>::type>(
      ap_detail::part_of<A>::make(std::forward<A>(a)), ap_detail::part_of<B>::make(std::forward<B>(b)));
}

}  // namespace sim
}  // namespace sadsl

#endif  // SADSL_SIM_AP_REFS_H
