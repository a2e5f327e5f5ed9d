// The runtime's signal handling (intercept_signals.cpp).
#pragma once

namespace raceaccel::rt {

// At start-up: signals whose default action ends the process, and that the
// program has not taken over, get a handler that checks and reports what is
// buffered before the process dies of the signal.
void install_fatal_signal_handlers();

}  // namespace raceaccel::rt
