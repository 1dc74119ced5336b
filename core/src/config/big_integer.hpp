// A fixed-capacity unsigned big integer: just what exact decimal <-> binary conversion needs
// (multiply by a small number or a power of ten, shift left, subtract, compare). Used by
// general_format.cpp (printing) and wasm/fast_strtod.cpp (reading); each states the largest
// value it makes, which must fit in Limbs x 32 bits (nothing checks at run time).
#pragma once

#include <cstdint>
#include <cstring>

namespace speccalc {

// Least significant limb first; limb[size - 1] != 0 unless size == 0.
template <int Limbs>
struct BigInteger {
  uint32_t limb[Limbs];
  int size = 0;

  explicit BigInteger(uint64_t v = 0) {
    while (v != 0) {
      limb[size++] = static_cast<uint32_t>(v);
      v >>= 32;
    }
  }

  void multiply(uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < size; ++i) {
      const uint64_t t = static_cast<uint64_t>(limb[i]) * m + carry;
      limb[i] = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    if (carry != 0) limb[size++] = static_cast<uint32_t>(carry);
  }

  // *this x m + a (a < 2^32): one decimal digit at a time when reading.
  void multiply_add(uint32_t m, uint32_t a) {
    uint64_t carry = a;
    for (int i = 0; i < size; ++i) {
      const uint64_t t = static_cast<uint64_t>(limb[i]) * m + carry;
      limb[i] = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    if (carry != 0) limb[size++] = static_cast<uint32_t>(carry);
  }

  void multiply_pow10(int n) {
    for (; n >= 9; n -= 9) multiply(1000000000u);
    static constexpr uint32_t kSmall[] = {1,      10,      100,      1000,     10000,
                                          100000, 1000000, 10000000, 100000000};
    if (n > 0) multiply(kSmall[n]);
  }

  void shift_left(int bits) {
    if (size == 0) return;
    const int words = bits / 32, rest = bits % 32;
    if (rest != 0) {
      uint32_t carry = 0;
      for (int i = 0; i < size; ++i) {
        const uint32_t next = limb[i] >> (32 - rest);
        limb[i] = (limb[i] << rest) | carry;
        carry = next;
      }
      if (carry != 0) limb[size++] = carry;
    }
    if (words > 0) {
      std::memmove(limb + words, limb, sizeof(uint32_t) * static_cast<unsigned>(size));
      std::memset(limb, 0, sizeof(uint32_t) * static_cast<unsigned>(words));
      size += words;
    }
  }

  void subtract(const BigInteger& b) {  // requires *this >= b
    int64_t borrow = 0;
    for (int i = 0; i < size; ++i) {
      const int64_t t = static_cast<int64_t>(limb[i]) - borrow - (i < b.size ? b.limb[i] : 0);
      borrow = t < 0 ? 1 : 0;
      limb[i] = static_cast<uint32_t>(t + (borrow << 32));
    }
    while (size > 0 && limb[size - 1] == 0) --size;
  }
};

// -1, 0 or 1 as a <, ==, > b.
template <int Limbs>
int compare(const BigInteger<Limbs>& a, const BigInteger<Limbs>& b) {
  if (a.size != b.size) return a.size < b.size ? -1 : 1;
  for (int i = a.size - 1; i >= 0; --i)
    if (a.limb[i] != b.limb[i]) return a.limb[i] < b.limb[i] ? -1 : 1;
  return 0;
}

}  // namespace speccalc
