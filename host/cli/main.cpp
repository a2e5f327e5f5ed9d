// raceaccel: precise dynamic data-race detection. See docs/cli.md.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/app.hpp"
#include "common/exit_codes.hpp"

namespace {

// A closed standard descriptor would be handed to the next file opened (a
// trace, an output file), and results meant for stdout would land there.
// Occupy it: stdout/stderr with a read-only /dev/null, so that writes to them
// fail (and are reported), stdin with an empty one.
void occupy_closed_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int opened = ::open("/dev/null", O_RDONLY);
    if (opened >= 0 && opened != fd) {
      ::dup2(opened, fd);
      ::close(opened);
    }
  }
}

// Results that did not reach standard output (closed, disk full, a broken
// pipe) are a failed command, whatever its own status was.
int with_output_checked(int status) {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (!failed) return status;
  const int err = errno;  // 0 when the write failed earlier, during the command
  std::cerr << "raceaccel: standard output: write failed" << (err != 0 ? std::string(": ") + std::strerror(err) : "")
            << '\n';
  return raceaccel::exit_code::kIo;
}

}  // namespace

int main(int argc, char** argv) {
  occupy_closed_standard_descriptors();
  auto cli = raceaccel::make_cli_app();
  if (auto status = raceaccel::parse_command_line(*cli, argc, argv)) return with_output_checked(*status);
  try {
    return with_output_checked(raceaccel::chosen_runner(*cli)());
  } catch (const std::exception& e) {  // a bug or resource exhaustion, never a silent crash
    if (std::ferror(stdout) != 0) return with_output_checked(raceaccel::exit_code::kOk);  // fmt::print's write error
    fmt::print(stderr, "raceaccel: internal error: {}\n", e.what());
    return raceaccel::exit_code::kCapacity;
  }
}
