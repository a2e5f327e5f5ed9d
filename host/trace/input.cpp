#include "trace/input.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {
constexpr size_t kChunk = 1 << 20;
}

Input::Input(int fd, bool owns, std::string name) : fd_(fd), owns_fd_(owns), name_(std::move(name)) {
  if (fd_ >= 0) buf_.resize(kChunk);  // memory inputs bring their own buffer
}

Input::Input(Input&& o) noexcept
    : fd_(o.fd_),
      owns_fd_(o.owns_fd_),
      eof_(o.eof_),
      name_(std::move(o.name_)),
      buf_(std::move(o.buf_)),
      begin_(o.begin_),
      end_(o.end_),
      consumed_(o.consumed_) {
  o.fd_ = -1;
  o.owns_fd_ = false;
}

Input::~Input() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
}

Input Input::open(const std::string& path) {
  if (path == "-") return Input(STDIN_FILENO, false, "<stdin>");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path + ": cannot open: " + std::strerror(errno));
  return Input(fd, true, path);
}

Input Input::from_memory(std::string_view bytes, std::string name) {
  Input in(-1, false, std::move(name));
  in.buf_.assign(bytes.begin(), bytes.end());
  in.end_ = bytes.size();
  in.eof_ = true;
  return in;
}

bool Input::fill(size_t want) {
  while (end_ - begin_ < want && !eof_) {
    if (begin_ > 0) {  // compact
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (buf_.size() - end_ < kChunk / 2 || buf_.size() < want) buf_.resize(std::max(buf_.size() * 2, want + kChunk));
    ssize_t got = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw IoError(name_ + ": read failed: " + std::strerror(errno));
    }
    if (got == 0) eof_ = true;
    end_ += static_cast<size_t>(got);
  }
  return end_ - begin_ >= want;
}

std::string_view Input::peek(size_t n) {
  fill(n);
  return {buf_.data() + begin_, std::min(n, end_ - begin_)};
}

size_t Input::read(void* out, size_t n) {
  size_t done = 0;
  auto* dst = static_cast<char*>(out);
  while (done < n) {
    if (begin_ == end_ && !fill(1)) break;
    size_t take = std::min(n - done, end_ - begin_);
    std::memcpy(dst + done, buf_.data() + begin_, take);
    begin_ += take;
    done += take;
  }
  consumed_ += done;
  return done;
}

bool Input::read_line(std::string& line, size_t max_bytes) {
  line.clear();
  for (;;) {
    if (begin_ == end_ && !fill(1)) return !line.empty();
    const char* start = buf_.data() + begin_;
    // Bytes that may still join the line: up to one over the limit (saturating at SIZE_MAX).
    size_t room = max_bytes - line.size();
    if (room != SIZE_MAX) ++room;
    const size_t avail = std::min(end_ - begin_, room);
    const void* nl = std::memchr(start, '\n', avail);
    if (nl != nullptr) {
      size_t len = static_cast<const char*>(nl) - start;
      line.append(start, len);
      begin_ += len + 1;
      consumed_ += len + 1;
      return true;
    }
    line.append(start, avail);
    consumed_ += avail;
    begin_ += avail;
    if (line.size() > max_bytes) return true;  // too long: the caller reports it
  }
}

}  // namespace raceaccel
