// A buffered byte source over a file or standard input, with look-ahead so
// the format of a trace can be sniffed from its first bytes even on a pipe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace raceaccel {

class Input {
 public:
  // "-" reads standard input. Throws IoError when the file cannot be opened.
  static Input open(const std::string& path);
  // Reads from memory (tests, fuzzers).
  static Input from_memory(std::string_view bytes, std::string name);

  Input(Input&& other) noexcept;
  Input& operator=(Input&&) = delete;
  Input(const Input&) = delete;
  ~Input();

  const std::string& name() const { return name_; }

  // Up to n bytes without consuming them (fewer only at end of input).
  std::string_view peek(size_t n);
  // Reads exactly n bytes into out unless the input ends; returns the count read.
  size_t read(void* out, size_t n);
  // Reads up to and excluding the next '\n'. Returns false at end of input.
  // A final line without '\n' is returned as a line. A line longer than
  // max_bytes is not read to its end: `line` then holds its first
  // max_bytes + 1 bytes (so line.size() > max_bytes tells), and the rest
  // is left unread, so an endless line costs bounded memory.
  bool read_line(std::string& line, size_t max_bytes = SIZE_MAX);
  // Bytes consumed so far.
  uint64_t offset() const { return consumed_; }

 private:
  Input(int fd, bool owns, std::string name);
  bool fill(size_t want);  // ensures want bytes buffered if the input has them

  int fd_ = -1;
  bool owns_fd_ = false;
  bool eof_ = false;
  std::string name_;
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;
  uint64_t consumed_ = 0;
};

}  // namespace raceaccel
