// libFuzzer target for the CLI's option parsing: random argv vectors (the
// input split at NUL bytes, at most 24 words) go through the same app that
// main() builds (cli/app.hpp), with every subcommand, check and callback of
// parsing, but no command is run. A parse must end in "run", 0 (help,
// version) or 2 (usage); anything else — a crash, a sanitizer report, an
// exception other than CLI11's — is a finding.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/app.hpp"
#include "common/exit_codes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> words{"raceaccel"};
  std::string word;
  for (size_t i = 0; i < size && words.size() < 24; ++i) {
    if (data[i] == 0) {
      words.push_back(word);
      word.clear();
    } else {
      word += static_cast<char>(data[i]);
    }
  }
  if (!word.empty() && words.size() < 24) words.push_back(word);
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  argv.push_back(nullptr);

  auto cli = raceaccel::make_cli_app();
  const auto status = raceaccel::parse_command_line(*cli, static_cast<int>(words.size()), argv.data(), true);
  if (status) {
    if (*status != raceaccel::exit_code::kOk && *status != raceaccel::exit_code::kUsage) std::abort();
  } else {
    (void)raceaccel::chosen_runner(*cli);  // a parse that succeeded chose a subcommand
  }
  return 0;
}
