// What building something per kernel shape needs, written once: the
// Verilated model of a shape (verilator/shape_model.*) and its synthesis
// report (synth/shape_resources.*) are both made from the source tree by an
// external tool, kept in a cache directory named by a hash of everything
// they are made from, and built in a directory of their own that is renamed
// into place when complete (so concurrent runs never see half of one).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace raceaccel::driver {

// FNV-1a, 64 bits, over a sequence of strings: names a cache entry (not a
// security boundary).
struct CacheKey {
  uint64_t h = 0xcbf29ce484222325ull;
  void add(std::string_view s);
  std::string hex() const;
};

// The source tree this binary was built from, or $RACEACCEL_SOURCE_DIR.
std::filesystem::path source_dir();
std::string read_file(const std::filesystem::path& path);
// A command's first line of standard output, "" when it cannot run or fails.
std::string first_line_of(const std::string& command);
// Runs argv (found on PATH) with stdout and stderr appended to `log`; its
// exit status (128 + the signal when a signal ended it, -1 when it could not
// run). `out`, when not null, receives stdout instead.
int run_logged_status(const std::vector<std::string>& argv, const std::filesystem::path& log,
                      const std::filesystem::path* out = nullptr);
// run_logged_status() == 0.
inline bool run_logged(const std::vector<std::string>& argv, const std::filesystem::path& log,
                       const std::filesystem::path* out = nullptr) {
  return run_logged_status(argv, log, out) == 0;
}

// The cache directory: `override_dir` if set, else $ENV_VAR, else
// $XDG_CACHE_HOME/raceaccel/SUBDIR, else ~/.cache/raceaccel/SUBDIR.
std::filesystem::path cache_dir(const std::string& override_dir, const char* env_var, const char* subdir);

// cache/KEY, made by build(tmp) in a fresh directory beside it (which it
// fills; false: failed, and the directory is left for its logs) unless it
// exists already. Returns the entry's directory; throws what build throws,
// and DeviceError(Unavailable) when the cache cannot be made.
// `built` says whether it was built now.
std::filesystem::path cached_entry(const std::filesystem::path& cache, const CacheKey& key,
                                   const std::function<void(const std::filesystem::path& tmp)>& build, bool& built);

}  // namespace raceaccel::driver
