// The rows of tests/programs/programs.manifest (name|driver|verdict|source|exe|args,
// arguments separated by '^'), for the runtime tests that run every test
// program (sampling_test, replay_test).
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

struct ManifestRow {
  std::string name, exe;
  std::vector<std::string> args;
};

inline std::vector<ManifestRow> manifest_rows(const std::string& path) {
  std::ifstream in(path);
  std::vector<ManifestRow> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, '|');) fields.push_back(f);
    if (fields.size() < 5) continue;
    ManifestRow row{fields[0], fields[4], {}};
    if (fields.size() > 5) {
      std::stringstream as(fields[5]);
      for (std::string a; std::getline(as, a, '^');)
        if (!a.empty()) row.args.push_back(a);
    }
    rows.push_back(row);
  }
  return rows;
}
