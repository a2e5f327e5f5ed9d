// Benchmark kernel: parallel merge sort of N pseudo-random ints. The top
// levels of the recursion run in new threads (fork/join), the rest
// sequentially; merges go through a scratch buffer.
// Usage: mergesort [N=8000000] [DEPTH=2] (2^DEPTH leaves run in parallel);
// prints whether the result is sorted and a checksum.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

static void merge_sort(int *data, int *scratch, std::size_t n, int parallel_depth) {
  if (n < 32) {
    for (std::size_t i = 1; i < n; i++)
      for (std::size_t j = i; j > 0 && data[j - 1] > data[j]; j--) std::swap(data[j - 1], data[j]);
    return;
  }
  const std::size_t half = n / 2;
  if (parallel_depth > 0) {
    std::thread left([=] { merge_sort(data, scratch, half, parallel_depth - 1); });
    merge_sort(data + half, scratch + half, n - half, parallel_depth - 1);
    left.join();
  } else {
    merge_sort(data, scratch, half, 0);
    merge_sort(data + half, scratch + half, n - half, 0);
  }
  std::size_t i = 0, j = half, k = 0;
  while (i < half && j < n) scratch[k++] = data[i] <= data[j] ? data[i++] : data[j++];
  while (i < half) scratch[k++] = data[i++];
  while (j < n) scratch[k++] = data[j++];
  for (std::size_t m = 0; m < n; m++) data[m] = scratch[m];
}

int main(int argc, char **argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 8000000;
  const int depth = argc > 2 ? std::atoi(argv[2]) : 2;
  if (n <= 0 || depth < 0 || depth > 8) {
    std::fprintf(stderr, "usage: mergesort [N>0] [DEPTH 0..8]\n");
    return 2;
  }
  std::vector<int> data(static_cast<std::size_t>(n)), scratch(static_cast<std::size_t>(n));
  std::uint32_t state = 12345;
  for (auto &v : data) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<int>(state >> 8);
  }
  merge_sort(data.data(), scratch.data(), data.size(), depth);
  bool sorted = true;
  long long checksum = 0;
  for (std::size_t i = 0; i < data.size(); i++) {
    if (i && data[i - 1] > data[i]) sorted = false;
    checksum += data[i] % 1000;
  }
  std::printf("mergesort n=%ld sorted=%d checksum=%lld\n", n, sorted, checksum);
  return sorted ? 0 : 1;
}
