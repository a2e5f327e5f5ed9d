// Opens the output of a command: a file, or stdout for "-".
#pragma once

#include <cstdio>
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
  // A file that was not closed successfully is removed: no partial output
  // is left behind by a failed command.
  ~OutputFile() {
    if (file_ && !closed_) {
      file_->close();
      std::remove(path_.c_str());
    }
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return file_ ? *file_ : std::cout; }
  // Flushes and reports a failed write (disk full, closed pipe) as IoError.
  void close() {
    stream().flush();
    if (!stream()) throw IoError(path_ + ": write failed");
    if (file_) file_->close();
    closed_ = true;
  }

 private:
  std::string path_;
  std::unique_ptr<std::ofstream> file_;
  bool closed_ = false;
};

}  // namespace raceaccel
