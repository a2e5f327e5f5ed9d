#include "detect/detector.hpp"

#include <stdexcept>

#include "detect/djit.hpp"
#include "detect/fasttrack.hpp"

namespace raceaccel {

std::string_view race_kind_name(RaceKind kind) {
  switch (kind) {
    case RaceKind::WriteWrite: return "write-write";
    case RaceKind::WriteRead: return "write-read";
    case RaceKind::ReadWrite: return "read-write";
  }
  return "?";
}

void Detector::process_parts(const Event&, uint64_t, std::span<const ByteRange>) {
  throw std::logic_error(std::string(name()) + ": cannot be sharded");
}

std::unique_ptr<Detector> make_detector(std::string_view name) {
  if (name == "djit") return std::make_unique<DjitDetector>();
  if (name == "fasttrack") return std::make_unique<FastTrackDetector>();
  return nullptr;
}

std::vector<std::string> detector_names() { return {"fasttrack", "djit"}; }

}  // namespace raceaccel
