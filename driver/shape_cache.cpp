#include "driver/shape_cache.hpp"

#include "driver/device.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

extern char** environ;

namespace raceaccel::driver {
namespace fs = std::filesystem;

void CacheKey::add(std::string_view s) {
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  h = (h ^ 0xff) * 0x100000001b3ull;  // separator
}

std::string CacheKey::hex() const { return fmt::format("{:016x}", h); }

fs::path source_dir() {
  if (const char* env = std::getenv("RACEACCEL_SOURCE_DIR"); env != nullptr && *env != '\0') return env;
  return RACEACCEL_SOURCE_DIR;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string first_line_of(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return "";
  char buffer[4096];
  std::string out;
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  if (::pclose(pipe) != 0) return "";
  if (const size_t nl = out.find('\n'); nl != std::string::npos) out.resize(nl);
  return out;
}

int run_logged_status(const std::vector<std::string>& argv, const fs::path& log, const fs::path* out) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (out != nullptr) {
    posix_spawn_file_actions_addopen(&actions, 1, out->c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  } else {
    posix_spawn_file_actions_adddup2(&actions, 2, 1);
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int err = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

fs::path cache_dir(const std::string& override_dir, const char* env_var, const char* subdir) {
  if (!override_dir.empty()) return override_dir;
  if (const char* env = std::getenv(env_var); env != nullptr && *env != '\0') return env;
  if (const char* env = std::getenv("XDG_CACHE_HOME"); env != nullptr && *env != '\0') {
    return fs::path(env) / "raceaccel" / subdir;
  }
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr && *home != '\0' ? home : "/tmp") / ".cache" / "raceaccel" / subdir;
}

fs::path cached_entry(const fs::path& cache, const CacheKey& key, const std::function<void(const fs::path&)>& build,
                      bool& built) {
  const fs::path dir = cache / key.hex();
  built = false;
  if (fs::exists(dir)) return dir;
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (ec) {
    throw DeviceError(DeviceErrorKind::Unavailable,
                      fmt::format("cannot create the cache {}: {}", cache.string(), ec.message()));
  }
  const fs::path tmp = cache / fmt::format("{}.tmp-{}", key.hex(), ::getpid());
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  build(tmp);
  fs::rename(tmp, dir, ec);
  if (ec) fs::remove_all(tmp, ec);  // another run finished the same entry first: use that one
  built = true;
  return dir;
}

}  // namespace raceaccel::driver
