// Runs a command body and turns the project's exceptions into the documented
// exit statuses, with one "raceaccel: ..." line on stderr.
#pragma once

#include <iostream>
#include <string>

#include "cli/exit_codes.hpp"
#include "trace/trace_error.hpp"
#include "trace/trace_writer.hpp"

namespace raceaccel {

// `subject` prefixes messages that do not name their file themselves.
template <typename Body>
int exit_status_of(const std::string& subject, Body&& body) {
  try {
    return body();
  } catch (const TraceError& err) {
    std::cerr << "raceaccel: " << err.what() << '\n';
    return exit_code::kMalformed;
  } catch (const UnrepresentableEvent& err) {
    std::cerr << "raceaccel: " << subject << ": " << err.what() << '\n';
    return exit_code::kUnrepresentable;
  } catch (const IoError& err) {
    std::cerr << "raceaccel: " << err.what() << '\n';
    return exit_code::kIo;
  }
}

}  // namespace raceaccel
