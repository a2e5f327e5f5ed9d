#include "cli/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

mode_t current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

bool stat_of(const std::string& path, struct stat& st) {
  if (path == "-") return false;
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

OutputFile::OutputFile(const std::string& path) : path_(path) {
  if (path == "-") return;
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or FIFO: written in place, never created, truncated or removed
    // by us. A directory fails to open here.
    file_ = std::make_unique<std::ofstream>(path, std::ios::binary);
    if (!*file_) throw IoError(path + ": cannot open for writing");
    return;
  }
  struct stat lst {};
  if (!exists && ::lstat(path.c_str(), &lst) == 0) {
    throw IoError(path + ": cannot open for writing: a symbolic link to nothing");
  }
  if (exists) {
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) == nullptr) {
      throw IoError(path + ": cannot open for writing: " + std::strerror(errno));
    }
    target_ = resolved;
  } else {
    target_ = path;
  }
  std::string pattern = directory_of(target_) + "/." + base_of(target_) + ".XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw IoError(path + ": cannot open for writing: " + std::strerror(errno));
  temp_ = name.data();
  // mkstemp makes the file 0600; the output gets the mode the file had, or
  // the one a new file would get.
  const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~current_umask());
  (void)::fchmod(fd, mode);
  ::close(fd);
  file_ = std::make_unique<std::ofstream>(temp_, std::ios::binary | std::ios::trunc);
  if (!*file_) {
    ::unlink(temp_.c_str());
    temp_.clear();
    throw IoError(path + ": cannot open for writing");
  }
}

OutputFile::~OutputFile() {
  if (file_ && !closed_) {
    file_->close();
    if (!temp_.empty()) ::unlink(temp_.c_str());  // only the file this run created
  }
}

void OutputFile::close() {
  stream().flush();
  if (!stream()) throw IoError(path_ + ": write failed");
  if (file_) {
    file_->close();
    if (file_->fail()) throw IoError(path_ + ": write failed");
    if (!temp_.empty() && ::rename(temp_.c_str(), target_.c_str()) != 0) {
      throw IoError(path_ + ": cannot replace: " + std::strerror(errno));
    }
  }
  closed_ = true;
}

bool same_file(const std::string& input, const std::string& output) {
  struct stat in {
  }, out{};
  const bool have_in = input == "-" ? ::fstat(STDIN_FILENO, &in) == 0 : stat_of(input, in);
  const bool have_out = output == "-" ? ::fstat(STDOUT_FILENO, &out) == 0 : stat_of(output, out);
  // Two ends of a pipe or a terminal are not "the same file" to protect.
  if (!have_in || !have_out || !S_ISREG(in.st_mode)) return false;
  return in.st_dev == out.st_dev && in.st_ino == out.st_ino;
}

}  // namespace raceaccel
