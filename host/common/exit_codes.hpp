// Exit statuses shared by the raceaccel CLI and the instrumentation runtime
// (documented in docs/cli.md and docs/runtime.md). In host/common/ because
// both use them and the runtime must not include the CLI's headers.
#pragma once

namespace raceaccel::exit_code {

inline constexpr int kOk = 0;               // no race found / command succeeded
inline constexpr int kUsage = 2;            // bad command line
inline constexpr int kUnrepresentable = 3;  // convert: an event has no form in the target format
inline constexpr int kMalformed = 65;       // malformed trace (EX_DATAERR); message names file:line or block
inline constexpr int kRaces = 66;           // check: races found
inline constexpr int kNoDevice = 69;        // check --backend: no card, no XRT runtime (EX_UNAVAILABLE)
inline constexpr int kCapacity = 70;        // a detector limit was reached (EX_SOFTWARE); never wraps silently
inline constexpr int kDeviceMemory = 71;    // check --backend: the device's memory cannot hold the buffers (EX_OSERR)
inline constexpr int kIo = 74;              // file cannot be opened, read or written (EX_IOERR)

}  // namespace raceaccel::exit_code
