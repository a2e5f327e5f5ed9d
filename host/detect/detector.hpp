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
  // Forgets the races races() has returned so far: the caller has taken
  // them. The runtime reports as it goes, and a run that races again and
  // again on fresh bytes would otherwise keep a Race per byte it ever
  // reported (64 bytes each: 2.3 GB for 400,000 racy 64-byte messages).
  // A detector that cannot forget keeps them (the default); which bytes
  // already raced is kept in the detector's state, not in this list.
  virtual void forget_races() {}
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
