// A progress line on stderr for long runs, shown only when stderr is a
// terminal and the run has taken more than a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace raceaccel {

class Progress {
 public:
  Progress(std::string label, uint64_t total_bytes);
  ~Progress();
  // Cheap to call per event: looks at the clock only every 64 K calls.
  void update(uint64_t events, uint64_t bytes) {
    if ((++calls_ & 0xFFFF) == 0) redraw(events, bytes);
  }
  void finish();
  // For a caller that counts on its own (sweep's runs in other threads):
  // redraws now (still only on a terminal, after the first second).
  void show(uint64_t events, uint64_t bytes) { redraw(events, bytes); }
  void set_label(std::string label) { label_ = std::move(label); }

 private:
  void redraw(uint64_t events, uint64_t bytes);
  std::string label_;
  uint64_t total_bytes_;
  uint64_t calls_ = 0;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace raceaccel
