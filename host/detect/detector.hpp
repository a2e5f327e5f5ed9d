// The interface every checker implements: software detectors here, device
// backends later. Events are fed in trace order with their trace index.
#pragma once

#include <memory>
#include <span>
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

  // Sharded checking (detect/sharded_checker.hpp): several detectors each
  // replay every synchronization event and check only their own bytes.
  // process_parts applies e's whole effect on synchronization and thread
  // slots (first sight of e.tid, an atomic's acquire and release halves;
  // every event without a byte range, and Alloc/Free, whole), and for a
  // Read, Write or atomic access checks only the bytes of `parts`: disjoint
  // sub-ranges of [e.addr, e.addr + e.size) in ascending order, possibly
  // none. Only detectors whose shardable() is true implement it.
  struct ByteRange {
    uint64_t addr = 0;
    uint64_t size = 0;
  };
  virtual bool shardable() const { return false; }
  virtual void process_parts(const Event& e, uint64_t index, std::span<const ByteRange> parts);
};

// "djit" (the golden reference) or "fasttrack". Returns nullptr for other names.
std::unique_ptr<Detector> make_detector(std::string_view name);
std::vector<std::string> detector_names();

}  // namespace raceaccel
