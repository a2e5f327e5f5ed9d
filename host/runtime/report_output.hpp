// Where reports go: stderr, or <log_path>.<pid> (opened on the first
// report, reopened under the new pid in a forked child). Whole reports are
// written with one write(2) each, so reports of processes sharing stderr do
// not interleave mid-line.
#pragma once

#include <string>
#include <string_view>

namespace raceaccel::rt {

class ReportOutput {
 public:
  explicit ReportOutput(std::string log_path) : log_path_(std::move(log_path)) {}
  ~ReportOutput();
  ReportOutput(const ReportOutput&) = delete;
  ReportOutput& operator=(const ReportOutput&) = delete;
  void write(std::string_view text);
  void after_fork_child();

 private:
  int fd();
  std::string log_path_;
  int fd_ = -1;
};

}  // namespace raceaccel::rt
