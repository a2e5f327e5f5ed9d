// Opens the output of a command: a file, or stdout for "-".
#pragma once

#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "trace/trace_error.hpp"

namespace raceaccel {

class OutputFile {
 public:
  explicit OutputFile(const std::string& path) : path_(path) {
    if (path != "-") {
      file_ = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
      if (!*file_) throw IoError(path + ": cannot open for writing");
    }
  }
  std::ostream& stream() { return file_ ? *file_ : std::cout; }
  // Flushes and reports a failed write (disk full, closed pipe) as IoError.
  void close() {
    stream().flush();
    if (!stream()) throw IoError(path_ + ": write failed");
    if (file_) file_->close();
  }

 private:
  std::string path_;
  std::unique_ptr<std::ofstream> file_;
};

}  // namespace raceaccel
