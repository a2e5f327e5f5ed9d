#include "runtime/report_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace raceaccel::rt {

ReportOutput::~ReportOutput() {
  if (fd_ > 2) close(fd_);
}

int ReportOutput::fd() {
  if (fd_ >= 0) return fd_;
  if (log_path_.empty()) return fd_ = 2;
  const std::string path = log_path_ + "." + std::to_string(getpid());
  fd_ = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    // Losing reports silently is worse than mixing them into stderr.
    const std::string msg = "raceaccel: cannot open log_path file " + path + "; reporting to stderr\n";
    (void)!::write(2, msg.data(), msg.size());
    fd_ = 2;
  }
  return fd_;
}

void ReportOutput::write(std::string_view text) {
  const int f = fd();
  while (!text.empty()) {
    const ssize_t n = ::write(f, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text.remove_prefix(static_cast<size_t>(n));
  }
}

void ReportOutput::after_fork_child() {
  if (fd_ > 2) close(fd_);
  fd_ = -1;
}

}  // namespace raceaccel::rt
