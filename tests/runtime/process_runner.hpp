// Runs a program with extra environment variables and captures its exit
// status, stdout and stderr (through files: no pipe can fill up).
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace raceaccel::test {

struct ProcessResult {
  int status = -1;      // exit status, or 128 + signal
  pid_t pid = 0;        // the process's id (reports name it)
  long max_rss_kb = 0;  // peak resident memory of the process
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env = {}) {
  static int counter = 0;
  const std::string base = "/tmp/raceaccel_rt_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
  const std::string out_path = base + ".out", err_path = base + ".err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string(*e).rfind("RACEACCEL_", 0) != 0) environment.emplace_back(*e);
  }
  environment.insert(environment.end(), env.begin(), env.end());
  std::vector<char*> c_env, c_argv;
  for (auto& e : environment) c_env.push_back(e.data());
  c_env.push_back(nullptr);
  std::vector<std::string> args = argv;
  for (auto& a : args) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);
  ProcessResult r;
  pid_t pid = 0;
  if (posix_spawnp(&pid, c_argv[0], &actions, nullptr, c_argv.data(), c_env.data()) == 0) {
    r.pid = pid;
    int status = 0;
    struct rusage usage {};
    wait4(pid, &status, 0, &usage);
    r.max_rss_kb = usage.ru_maxrss;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&actions);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return r;
}

}  // namespace raceaccel::test
