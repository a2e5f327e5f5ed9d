#include "core/vector_clock.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace raceaccel {

std::string VectorClock::to_string() const { return fmt::format("<{}>", fmt::join(c_, ",")); }

}  // namespace raceaccel
