// The one exception type for malformed input. `where` names the place
// ("trace.std:12", "big.rtrace: block 3 at byte 1048592") so the CLI can
// print "where: reason" and exit with status 65.
#pragma once

#include <stdexcept>
#include <string>

namespace raceaccel {

class TraceError : public std::runtime_error {
 public:
  TraceError(std::string where, const std::string& reason)
      : std::runtime_error(where + ": " + reason), where_(std::move(where)) {}
  const std::string& where() const { return where_; }

 private:
  std::string where_;
};

// Failure to open, read or write a file (not a problem with its content).
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace raceaccel
