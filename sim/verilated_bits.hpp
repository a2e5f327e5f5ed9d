// Reading and writing bit fields of Verilated ports of any width: CData,
// SData, IData, QData and VlWide<N> all look the same to the harnesses, so
// one harness serves every parameterization of a model. Used by the engine
// and kernel harnesses (sim/) and the VC-unit tests (tests/rtl/).
//
// A port of W bits is a scalar (W <= 64) or VlWide<(W+31)/32> (W > 64); its
// "words" here are a little-endian image of 32-bit words, least significant
// first. Vector clocks travel as lanes: lane i at bits [i*clk_w, (i+1)*clk_w).
#pragma once

#include <verilated.h>

#include <cstdint>
#include <vector>

namespace raceaccel::sim {

template <typename T>
uint64_t get_bits(const T& sig, unsigned lo, unsigned width) {
  const uint64_t v = static_cast<uint64_t>(sig) >> lo;
  return width >= 64 ? v : (v & ((uint64_t{1} << width) - 1));
}

template <std::size_t N>
uint64_t get_bits(const VlWide<N>& sig, unsigned lo, unsigned width) {
  uint64_t out = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lo + i;
    if (bit / 32 < N && ((sig[bit / 32] >> (bit % 32)) & 1u)) out |= uint64_t{1} << i;
  }
  return out;
}

template <typename T>
void set_bits(T& sig, uint64_t value) {
  sig = static_cast<T>(value);
}

// A wide value as 32-bit words, least significant first.
template <typename T>
std::vector<uint32_t> words_of(const T& sig, unsigned width) {
  std::vector<uint32_t> w((width + 31) / 32, 0);
  const uint64_t v = static_cast<uint64_t>(sig);
  w[0] = static_cast<uint32_t>(v);
  if (w.size() > 1) w[1] = static_cast<uint32_t>(v >> 32);
  return w;
}
template <std::size_t N>
std::vector<uint32_t> words_of(const VlWide<N>& sig, unsigned width) {
  std::vector<uint32_t> w((width + 31) / 32, 0);
  for (std::size_t i = 0; i < w.size() && i < N; ++i) w[i] = sig[i];
  return w;
}

// Words beyond `w` are zero.
template <typename T>
void set_words(T& sig, const std::vector<uint32_t>& w) {
  uint64_t v = w.empty() ? 0 : w[0];
  if (w.size() > 1) v |= uint64_t{w[1]} << 32;
  sig = static_cast<T>(v);
}
template <std::size_t N>
void set_words(VlWide<N>& sig, const std::vector<uint32_t>& w) {
  for (std::size_t i = 0; i < N; ++i) sig[i] = i < w.size() ? w[i] : 0;
}

inline uint64_t words_bits(const std::vector<uint32_t>& w, unsigned lo, unsigned width) {
  uint64_t out = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lo + i;
    if (bit / 32 < w.size() && ((w[bit / 32] >> (bit % 32)) & 1u)) out |= uint64_t{1} << i;
  }
  return out;
}

// Writes the low `width` bits of `value` at bit `lo` (the words must reach
// that far); other bits are kept.
inline void set_words_bits(std::vector<uint32_t>& w, unsigned lo, unsigned width, uint64_t value) {
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lo + i;
    const uint32_t mask = 1u << (bit % 32);
    w[bit / 32] = ((value >> i) & 1u) ? (w[bit / 32] | mask) : (w[bit / 32] & ~mask);
  }
}

// Vector clock <-> port: lanes.size() lanes of clk_w bits; the port's bits
// above them become zero.
template <typename T>
void put_lanes(T& port, const std::vector<uint64_t>& lanes, unsigned clk_w) {
  std::vector<uint32_t> w((lanes.size() * clk_w + 31) / 32, 0);
  for (std::size_t i = 0; i < lanes.size(); ++i) set_words_bits(w, static_cast<unsigned>(i) * clk_w, clk_w, lanes[i]);
  set_words(port, w);
}
template <typename T>
std::vector<uint64_t> get_lanes(const T& port, unsigned num_lanes, unsigned clk_w) {
  const std::vector<uint32_t> w = words_of(port, num_lanes * clk_w);
  std::vector<uint64_t> lanes(num_lanes);
  for (unsigned i = 0; i < num_lanes; ++i) lanes[i] = words_bits(w, i * clk_w, clk_w);
  return lanes;
}

}  // namespace raceaccel::sim
