// The interface every checker implements: software detectors here, device
// backends later. Events are fed in trace order with their trace index.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/event.hpp"
#include "detect/race.hpp"

namespace raceaccel {

class Detector {
 public:
  virtual ~Detector() = default;
  virtual std::string_view name() const = 0;
  // Applies one event. Throws CapacityError if exactness cannot be kept.
  virtual void process(const Event& event, uint64_t index) = 0;
  // Per-byte first races, in the order they were found.
  virtual const std::vector<Race>& races() const = 0;
  // Completes work still in flight (a device batch): races() is then final.
  // In-process detectors have none.
  virtual void finish() {}
};

// "djit" (the golden reference) or "fasttrack". Returns nullptr for other names.
std::unique_ptr<Detector> make_detector(std::string_view name);
std::vector<std::string> detector_names();

}  // namespace raceaccel
