// Runs a command body and turns the project's exceptions into the documented
// exit statuses, with one "raceaccel: ..." line on stderr.
#pragma once

#include <iostream>
#include <optional>
#include <string>

#include "common/exit_codes.hpp"
#include "detect/race.hpp"
#include "trace/trace_error.hpp"
#include "trace/trace_writer.hpp"

namespace raceaccel {

struct Failure {
  int status = exit_code::kOk;
  std::string message;  // "file:line: reason", ready for "raceaccel: " + message
};

// Runs body; a project exception becomes its documented exit status and
// message. `subject` prefixes messages that do not name their file.
template <typename Body>
std::optional<Failure> failure_of(const std::string& subject, Body&& body) {
  try {
    body();
    return std::nullopt;
  } catch (const TraceError& err) {
    return Failure{exit_code::kMalformed, err.what()};
  } catch (const UnrepresentableEvent& err) {
    return Failure{exit_code::kUnrepresentable, subject + ": " + err.what()};
  } catch (const IoError& err) {
    return Failure{exit_code::kIo, err.what()};
  } catch (const CapacityError& err) {
    return Failure{exit_code::kCapacity, subject + ": " + err.what()};
  }
}

// The same for a whole command: prints the message and returns the status.
template <typename Body>
int exit_status_of(const std::string& subject, Body&& body) {
  int status = exit_code::kOk;
  if (auto failure = failure_of(subject, [&] { status = body(); })) {
    std::cerr << "raceaccel: " << failure->message << '\n';
    return failure->status;
  }
  return status;
}

}  // namespace raceaccel
