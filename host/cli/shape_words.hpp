// A kernel shape named in words, "slots=64 sets=4096 pool=32 ...", with the
// knob names of `raceaccel sweep` (sweep_grid.hpp): what `raceaccel shape`
// turns into rac_kernel's parameters for `make xclbin SHAPE=...`
// (docs/deployment.md), so that the shape a sweep studied is the one
// packaged. Only the knobs that are RTL parameters are accepted; the
// others (latency, bucket_bits, batch_words, ...) are host or bus settings
// of a sweep and are not built into a kernel.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "driver/kernel_shape.hpp"

namespace raceaccel {

// The shape the words name; every knob not named keeps the RTL default
// (driver::KernelShape's). Throws GridError (a usage error) for a word that
// is not NAME=VALUE with a kernel knob and one decimal value in the knob's
// range, for a knob named twice, and for a shape the RTL cannot take
// (driver::shape_problem says why).
driver::KernelShape kernel_shape_from_words(const std::vector<std::string>& words);

// The words of a shape file: whitespace-separated, '#' to the end of a line
// a comment.
std::vector<std::string> shape_file_words(std::string_view text);

}  // namespace raceaccel
