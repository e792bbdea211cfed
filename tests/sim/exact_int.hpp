// An unbounded integer for checking ap_int: sign and magnitude in 32-bit limbs, schoolbook
// algorithms. Deliberately unlike the headers under test (two's complement in 64-bit words), so the
// two do not share mistakes. Slow and simple; only the tests use it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <sadsl/sim/ap_int.h>

namespace sim_test {

class exact {
 public:
  exact() = default;
  exact(long long v) : negative_(v < 0) {
    unsigned long long m = v < 0 ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
    while (m != 0) {
      limbs_.push_back(static_cast<std::uint32_t>(m));
      m >>= 32;
    }
  }
  static exact from_unsigned(unsigned long long v) {
    exact e;
    while (v != 0) {
      e.limbs_.push_back(static_cast<std::uint32_t>(v));
      v >>= 32;
    }
    return e;
  }
  static exact from_limbs(std::vector<std::uint32_t> limbs) { return make(false, std::move(limbs)); }
  static exact pow2(int n) {
    exact e;
    e.limbs_.assign(static_cast<std::size_t>(n / 32 + 1), 0);
    e.limbs_.back() = std::uint32_t(1) << (n % 32);
    return e;
  }

  bool is_zero() const { return limbs_.empty(); }
  bool negative() const { return negative_; }

  friend bool operator==(const exact& a, const exact& b) { return a.negative_ == b.negative_ && a.limbs_ == b.limbs_; }
  friend bool operator!=(const exact& a, const exact& b) { return !(a == b); }
  friend bool operator<(const exact& a, const exact& b) {
    if (a.negative_ != b.negative_) return a.negative_;
    const int c = compare_magnitude(a.limbs_, b.limbs_);
    return a.negative_ ? c > 0 : c < 0;
  }

  exact operator-() const {
    exact r = *this;
    if (!r.is_zero()) r.negative_ = !r.negative_;
    return r;
  }
  friend exact operator+(const exact& a, const exact& b) {
    if (a.negative_ == b.negative_) return make(a.negative_, add_magnitude(a.limbs_, b.limbs_));
    if (compare_magnitude(a.limbs_, b.limbs_) >= 0) return make(a.negative_, sub_magnitude(a.limbs_, b.limbs_));
    return make(b.negative_, sub_magnitude(b.limbs_, a.limbs_));
  }
  friend exact operator-(const exact& a, const exact& b) { return a + (-b); }
  friend exact operator*(const exact& a, const exact& b) {
    std::vector<std::uint32_t> r(a.limbs_.size() + b.limbs_.size(), 0);
    for (std::size_t i = 0; i < a.limbs_.size(); ++i) {
      std::uint64_t carry = 0;
      for (std::size_t j = 0; j < b.limbs_.size(); ++j) {
        const std::uint64_t t = static_cast<std::uint64_t>(a.limbs_[i]) * b.limbs_[j] + r[i + j] + carry;
        r[i + j] = static_cast<std::uint32_t>(t);
        carry = t >> 32;
      }
      r[i + b.limbs_.size()] = static_cast<std::uint32_t>(carry);
    }
    return make(a.negative_ != b.negative_, r);
  }
  // Truncating division, as C++ (b != 0): restoring long division, one bit at a time.
  friend void divide(const exact& a, const exact& b, exact* q, exact* r) {
    std::vector<std::uint32_t> quotient(a.limbs_.size(), 0), rest(b.limbs_.size() + 1, 0);
    for (int i = static_cast<int>(a.limbs_.size()) * 32 - 1; i >= 0; --i) {
      for (std::size_t k = rest.size(); k-- > 1;) rest[k] = (rest[k] << 1) | (rest[k - 1] >> 31);
      rest[0] = (rest[0] << 1) | ((a.limbs_[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1);
      if (compare_magnitude(rest, b.limbs_) >= 0) {
        rest = sub_magnitude(rest, b.limbs_);
        quotient[static_cast<std::size_t>(i / 32)] |= std::uint32_t(1) << (i % 32);
      }
    }
    *q = make(a.negative_ != b.negative_, quotient);
    *r = make(a.negative_, rest);
  }
  friend exact operator/(const exact& a, const exact& b) {
    exact q, r;
    divide(a, b, &q, &r);
    return q;
  }
  friend exact operator%(const exact& a, const exact& b) {
    exact q, r;
    divide(a, b, &q, &r);
    return r;
  }

  // Floor division by 2^n (an arithmetic right shift).
  exact floor_div_pow2(int n) const {
    std::vector<std::uint32_t> q;
    bool dropped_bits = false;
    for (int i = 0; i < static_cast<int>(limbs_.size()) * 32; ++i) {
      const bool b = (limbs_[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1;
      if (i < n) {
        dropped_bits |= b;
      } else {
        const int j = i - n;
        if (static_cast<std::size_t>(j / 32) >= q.size()) q.push_back(0);
        q[static_cast<std::size_t>(j / 32)] |= std::uint32_t(b) << (j % 32);
      }
    }
    exact r = make(negative_, q);
    return negative_ && dropped_bits ? r - exact(1) : r;
  }

  // The value modulo 2^w, read as a w-bit unsigned or two's complement signed number.
  exact wrap(int w, bool is_signed) const {
    std::vector<std::uint32_t> low(limbs_.begin(), limbs_.begin() + std::min(limbs_.size(), static_cast<std::size_t>((w + 31) / 32)));
    if (w % 32 != 0 && low.size() == static_cast<std::size_t>((w + 31) / 32)) low.back() &= (std::uint32_t(1) << (w % 32)) - 1;
    exact r = make(false, low);  // |v| mod 2^w
    if (negative_ && !r.is_zero()) r = pow2(w) - r;
    if (is_signed && !(r < pow2(w - 1))) r = r - pow2(w);
    return r;
  }

  // Bit i of the infinite two's complement representation.
  bool bit(int i) const {
    const exact r = wrap(i + 1, false);
    const std::size_t limb = static_cast<std::size_t>(i / 32);
    return limb < r.limbs_.size() && ((r.limbs_[limb] >> (i % 32)) & 1);
  }

  std::string hex() const {
    if (is_zero()) return "0x0";
    std::string digits;
    for (std::uint32_t limb : limbs_)
      for (int k = 0; k < 8; ++k) digits.push_back("0123456789abcdef"[(limb >> (4 * k)) & 15]);
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    return std::string(negative_ ? "-0x" : "0x") + std::string(digits.rbegin(), digits.rend());
  }

 private:
  static exact make(bool negative, std::vector<std::uint32_t> limbs) {
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
    exact e;
    e.limbs_ = std::move(limbs);
    e.negative_ = negative && !e.limbs_.empty();
    return e;
  }
  static int compare_magnitude(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    std::size_t na = a.size(), nb = b.size();
    while (na > 0 && a[na - 1] == 0) --na;
    while (nb > 0 && b[nb - 1] == 0) --nb;
    if (na != nb) return na < nb ? -1 : 1;
    for (std::size_t i = na; i-- > 0;)
      if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  }
  static std::vector<std::uint32_t> add_magnitude(const std::vector<std::uint32_t>& a,
                                                  const std::vector<std::uint32_t>& b) {
    std::vector<std::uint32_t> r(std::max(a.size(), b.size()) + 1, 0);
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i + 1 < r.size(); ++i) {
      const std::uint64_t t = carry + (i < a.size() ? a[i] : 0) + (i < b.size() ? b[i] : 0);
      r[i] = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    r.back() = static_cast<std::uint32_t>(carry);
    return r;
  }
  // a - b for |a| >= |b|.
  static std::vector<std::uint32_t> sub_magnitude(const std::vector<std::uint32_t>& a,
                                                  const std::vector<std::uint32_t>& b) {
    std::vector<std::uint32_t> r(a.size(), 0);
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::int64_t t = static_cast<std::int64_t>(a[i]) - (i < b.size() ? b[i] : 0) - borrow;
      borrow = t < 0;
      if (t < 0) t += std::int64_t(1) << 32;
      r[i] = static_cast<std::uint32_t>(t);
    }
    return r;
  }
  std::vector<std::uint32_t> limbs_;  // little-endian magnitude, no leading zero limbs
  bool negative_ = false;
};

// The mathematical value of an ap value, read bit by bit through the public operator[].
template <int W, bool S>
exact to_exact(const ap_int_base<W, S>& x) {
  std::vector<std::uint32_t> limbs(static_cast<std::size_t>((W + 31) / 32), 0);
  for (int i = 0; i < W; ++i)
    if (x[i]) limbs[static_cast<std::size_t>(i / 32)] |= std::uint32_t(1) << (i % 32);
  const exact magnitude = exact::from_limbs(limbs);
  return S && x[W - 1] ? magnitude - exact::pow2(W) : magnitude;
}

}  // namespace sim_test
