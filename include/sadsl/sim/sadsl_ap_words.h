// sadsl simulation headers: word-level arithmetic behind ap_int.h.
//
// A value of W bits lives in ceil(W/64) little-endian 64-bit words. Every routine here keeps the
// invariant that the unused high bits of the top word repeat the sign bit (signed types) or are zero
// (unsigned types), so word-wise operations, comparisons and widening need no masking of their inputs.
// Only the C++ standard library is used; the code compiles as C++14.
#ifndef SADSL_SIM_AP_WORDS_H
#define SADSL_SIM_AP_WORDS_H

#include <cstdint>

namespace sadsl {
namespace sim {
namespace apw {

typedef std::uint64_t word;

inline constexpr int words_for(int width) { return (width + 63) / 64; }

// Restores the invariant above after an operation that may have set bits past `width`.
inline void normalize(word* v, int n, int width, bool is_signed) {
  const int used = width & 63;
  if (used == 0) return;
  word& top = v[n - 1];
  if (is_signed) {
    // Arithmetic right shift of int64_t replicates the sign (guaranteed by GCC and Clang, and C++20).
    top = static_cast<word>(static_cast<std::int64_t>(top << (64 - used)) >> (64 - used));
  } else {
    top &= ~word(0) >> (64 - used);
  }
}

inline bool is_negative(const word* v, int n, bool is_signed) {
  return is_signed && static_cast<std::int64_t>(v[n - 1]) < 0;
}

// The word that continues the value upwards: all ones for a negative signed value, else zero.
inline word fill_word(const word* v, int n, bool is_signed) {
  return is_negative(v, n, is_signed) ? ~word(0) : word(0);
}

// d (nd words) = s (ns words, normalized) sign- or zero-extended, or truncated.
inline void extend(word* d, int nd, const word* s, int ns, bool s_signed) {
  const word fill = fill_word(s, ns, s_signed);
  const int common = nd < ns ? nd : ns;
  for (int i = 0; i < common; ++i) d[i] = s[i];
  for (int i = common; i < nd; ++i) d[i] = fill;
}

inline void set_zero(word* v, int n) {
  for (int i = 0; i < n; ++i) v[i] = 0;
}

inline bool is_zero(const word* v, int n) {
  for (int i = 0; i < n; ++i)
    if (v[i] != 0) return false;
  return true;
}

inline void add(word* r, const word* a, const word* b, int n) {
  word carry = 0;
  for (int i = 0; i < n; ++i) {
    const word s = a[i] + carry;
    const word c1 = s < carry;
    const word t = s + b[i];
    const word c2 = t < s;
    r[i] = t;
    carry = c1 | c2;
  }
}

inline void sub(word* r, const word* a, const word* b, int n) {
  word borrow = 0;
  for (int i = 0; i < n; ++i) {
    const word t = a[i] - b[i];
    const word b1 = a[i] < b[i];
    const word u = t - borrow;
    const word b2 = t < borrow;
    r[i] = u;
    borrow = b1 | b2;
  }
}

inline void negate(word* r, const word* a, int n) {
  word carry = 1;
  for (int i = 0; i < n; ++i) {
    const word t = ~a[i] + carry;
    carry = (carry && t == 0) ? 1 : 0;
    r[i] = t;
  }
}

inline void bit_and(word* r, const word* a, const word* b, int n) {
  for (int i = 0; i < n; ++i) r[i] = a[i] & b[i];
}
inline void bit_or(word* r, const word* a, const word* b, int n) {
  for (int i = 0; i < n; ++i) r[i] = a[i] | b[i];
}
inline void bit_xor(word* r, const word* a, const word* b, int n) {
  for (int i = 0; i < n; ++i) r[i] = a[i] ^ b[i];
}

// Full 64x64 -> 128-bit product; returns the low word and stores the high word.
inline word mul_wide(word a, word b, word* hi) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 u128;
  const u128 p = static_cast<u128>(a) * b;
  *hi = static_cast<word>(p >> 64);
  return static_cast<word>(p);
#else
  const word a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
  const word ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
  const word mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
  return (mid << 32) | (ll & 0xffffffffu);
#endif
}

// r = low n words of a * b (all n words; two's complement makes this right for signed operands
// that were sign-extended to n words). r must not alias a or b.
inline void mul_low(word* r, const word* a, const word* b, int n) {
  set_zero(r, n);
  for (int i = 0; i < n; ++i) {
    if (a[i] == 0) continue;
    word carry = 0;
    for (int j = 0; i + j < n; ++j) {
      word hi;
      const word lo = mul_wide(a[i], b[j], &hi);
      word t = r[i + j] + lo;
      hi += t < lo;
      t += carry;
      hi += t < carry;
      r[i + j] = t;
      carry = hi;
    }
  }
}

// r = a << s over n words, bits shifted past the top are lost. r may alias a.
inline void shift_left(word* r, const word* a, int n, long long s) {
  if (s >= 64LL * n) {
    set_zero(r, n);
    return;
  }
  const int ws = static_cast<int>(s >> 6), bs = static_cast<int>(s & 63);
  for (int i = n - 1; i >= 0; --i) {
    const int j = i - ws;
    word v = 0;
    if (j >= 0) {
      v = a[j] << bs;
      if (bs != 0 && j >= 1) v |= a[j - 1] >> (64 - bs);
    }
    r[i] = v;
  }
}

// r = a >> s over n words, filling from the top with `fill` (all ones gives an arithmetic shift).
// r may alias a.
inline void shift_right(word* r, const word* a, int n, long long s, word fill) {
  if (s >= 64LL * n) {
    for (int i = 0; i < n; ++i) r[i] = fill;
    return;
  }
  const int ws = static_cast<int>(s >> 6), bs = static_cast<int>(s & 63);
  for (int i = 0; i < n; ++i) {
    const int j = i + ws;
    const word lo = j < n ? a[j] : fill;
    const word hi = j + 1 < n ? a[j + 1] : fill;
    r[i] = bs == 0 ? lo : (lo >> bs) | (hi << (64 - bs));
  }
}

// Unsigned comparison of two n-word numbers: -1, 0 or 1.
inline int compare_unsigned(const word* a, const word* b, int n) {
  for (int i = n - 1; i >= 0; --i)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

inline bool get_bit(const word* v, int i) { return (v[i >> 6] >> (i & 63)) & 1; }

inline void set_bit(word* v, int i, bool b) {
  const word m = word(1) << (i & 63);
  if (b)
    v[i >> 6] |= m;
  else
    v[i >> 6] &= ~m;
}

inline word low_mask(int len) { return len >= 64 ? ~word(0) : (word(1) << len) - 1; }

// Bits [lo, lo + len) of v (n words), len in 1..64, as an unsigned word.
inline word get_field64(const word* v, int n, int lo, int len) {
  const int wi = lo >> 6, bi = lo & 63;
  word x = v[wi] >> bi;
  if (bi != 0 && bi + len > 64 && wi + 1 < n) x |= v[wi + 1] << (64 - bi);
  return x & low_mask(len);
}

// Writes the low len bits of x (len in 1..64) to bits [lo, lo + len) of v (n words). The field must
// lie in v; the explicit wi + 1 < n also lets compilers see that one-word values have no second word.
inline void set_field64(word* v, int n, int lo, int len, word x) {
  const word mask = low_mask(len);
  x &= mask;
  const int wi = lo >> 6, bi = lo & 63;
  v[wi] = (v[wi] & ~(mask << bi)) | (x << bi);
  if (bi != 0 && bi + len > 64 && wi + 1 < n) {
    const int done = 64 - bi;
    v[wi + 1] = (v[wi + 1] & ~(mask >> done)) | (x >> done);
  }
}

// out (nout words) = bits [lo, lo + len) of v (n words), zero-extended. len <= 64 * nout.
inline void get_field(word* out, int nout, const word* v, int n, int lo, int len) {
  int k = 0;
  for (; 64 * k < len; ++k) {
    const int chunk = len - 64 * k < 64 ? len - 64 * k : 64;
    out[k] = get_field64(v, n, lo + 64 * k, chunk);
  }
  for (; k < nout; ++k) out[k] = 0;
}

// Bits [lo, lo + len) of v (n words) = low len bits of in.
inline void set_field(word* v, int n, int lo, int len, const word* in) {
  for (int k = 0; 64 * k < len; ++k) {
    const int chunk = len - 64 * k < 64 ? len - 64 * k : 64;
    set_field64(v, n, lo + 64 * k, chunk, in[k]);
  }
}

// Reverses the order of the low len bits of v (n words); bits above len are cleared.
inline void reverse_low_bits(word* v, int n, int len) {
  word tmp[64] = {};  // callers pass at most 4096 bits
  for (int i = 0; i < len; ++i)
    if (get_bit(v, i)) set_bit(tmp, len - 1 - i, true);
  for (int i = 0; i < n; ++i) v[i] = tmp[i];
}

inline int significant_words(const word* v, int n) {
  while (n > 0 && v[n - 1] == 0) --n;
  return n;
}

// q = a / d and returns a % d for an n-word a and a single-word d != 0.
inline word divmod_word(word* q, const word* a, int n, word d) {
  word rem = 0;
  for (int i = n - 1; i >= 0; --i) {
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    const u128 cur = (static_cast<u128>(rem) << 64) | a[i];
    q[i] = static_cast<word>(cur / d);
    rem = static_cast<word>(cur % d);
#else
    // Bit-serial long division of (rem:a[i]) by d; rem < d keeps every partial remainder below 2^65.
    word qw = 0;
    for (int b = 63; b >= 0; --b) {
      const bool carry = rem >> 63;
      rem = (rem << 1) | ((a[i] >> b) & 1);
      if (carry || rem >= d) {
        rem -= d;
        qw |= word(1) << b;
      }
    }
    q[i] = qw;
#endif
  }
  return rem;
}

// Unsigned n-word division: q = a / b, r = a % b, b != 0. q and r must not alias a or b.
inline void divmod_unsigned(word* q, word* r, const word* a, const word* b, int n) {
  const int nb = significant_words(b, n);
  if (nb == 1) {
    set_zero(r, n);
    r[0] = divmod_word(q, a, n, b[0]);
    return;
  }
  // Multi-word divisors are rare in generated code (wide values are moved, not divided), so a
  // bit-serial restoring division keeps this short.
  set_zero(q, n);
  set_zero(r, n);
  const int top = 64 * significant_words(a, n);
  for (int i = top - 1; i >= 0; --i) {
    shift_left(r, r, n, 1);
    r[0] |= get_bit(a, i);
    if (compare_unsigned(r, b, n) >= 0) {
      sub(r, r, b, n);
      set_bit(q, i, true);
    }
  }
}

}  // namespace apw
}  // namespace sim
}  // namespace sadsl

#endif  // SADSL_SIM_AP_WORDS_H
