// Opens the output of a command: a file, or stdout for "-".
//
// A failed command must not destroy what was at the output path, nor leave
// partial output behind, and it may remove only a file that this run
// created. So a regular file (new, existing, or reached through symbolic
// links) is written to a temporary file in the target's directory, which
// close() renames over the target: until then the old content is intact, and
// a failure removes only the temporary file. Anything else that already
// exists there (a device such as /dev/null, a FIFO) is written in place and
// never removed.
#pragma once

#include <fstream>
#include <iostream>
#include <memory>
#include <string>

namespace raceaccel {

class OutputFile {
 public:
  // Throws IoError when the output cannot be opened.
  explicit OutputFile(const std::string& path);
  // Not closed successfully: removes the temporary file, nothing else.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return file_ ? *file_ : std::cout; }
  // Flushes, reports a failed write (disk full, closed pipe) as IoError, and
  // puts the temporary file in place of the target.
  void close();

 private:
  std::string path_;    // as given, for messages
  std::string target_;  // the file the output ends up in (symbolic links resolved)
  std::string temp_;    // the file this run created and renames over target_; empty when writing in place
  std::unique_ptr<std::ofstream> file_;
  bool closed_ = false;
};

// True when `input` and `output` name the same file (device and inode, so
// also through other paths, symbolic or hard links); "-" is standard
// input/output. A path that does not exist is nobody's twin.
bool same_file(const std::string& input, const std::string& output);

}  // namespace raceaccel
