#include "cli/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace raceaccel {

Progress::Progress(std::string label, uint64_t total_bytes)
    : label_(std::move(label)),
      total_bytes_(total_bytes),
      enabled_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() { finish(); }

void Progress::redraw(uint64_t events, uint64_t bytes) {
  if (!enabled_) return;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (seconds < 1.0) return;
  std::string line =
      fmt::format("\r{}: {:.1f} M events, {:.1f} M events/s", label_, events / 1e6, events / 1e6 / seconds);
  if (total_bytes_ > 0) {
    const double fraction = static_cast<double>(bytes) / static_cast<double>(total_bytes_);
    const int width = 30;
    const int filled = static_cast<int>(fraction * width);
    line += fmt::format(" [{}{}] {:3.0f}%", std::string(filled, '#'), std::string(width - filled, ' '), fraction * 100);
  }
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::finish() {
  if (drawn_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace raceaccel
