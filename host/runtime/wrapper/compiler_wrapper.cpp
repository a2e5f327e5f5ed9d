// raceaccel-cc / raceaccel-c++: drop-in C and C++ compilers that instrument
// with the compiler's ThreadSanitizer pass and link raceaccel's runtime
// instead of the sanitizer runtime (docs/runtime.md, "Compiler wrappers").
//
// Compile steps get `-fsanitize=thread -g` (and -Wno-tsan for gcc). Link
// steps get the runtime (DT_NEEDED, rpath to its directory) and -pthread,
// never -fsanitize=thread. A compile-and-link invocation is split: each
// source is compiled to a temporary object, then everything is linked, so
// neither gcc nor clang pulls in its own TSan runtime.
//
// The compiler is RACEACCEL_CC / RACEACCEL_CXX if set, else the one found at
// configure time (clang-19 preferred). The runtime is found relative to this
// executable, so a moved or installed tree keeps working: first where
// `cmake --install` puts it (<dir>/RACEACCEL_RUNTIME_RELATIVE_DIR, from the
// install's bin and lib directories, e.g. ../lib or ../lib/x86_64-linux-gnu),
// then the build tree's <dir>/../lib.
#include <limits.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

constexpr int kWrapperError = 2;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// Options whose value is the next argument.
bool takes_separate_value(std::string_view a) {
  static const char* const kOptions[] = {"-o",
                                         "-I",
                                         "-D",
                                         "-U",
                                         "-include",
                                         "-imacros",
                                         "-isystem",
                                         "-idirafter",
                                         "-iquote",
                                         "-iprefix",
                                         "-iwithprefix",
                                         "-isysroot",
                                         "-x",
                                         "-MF",
                                         "-MT",
                                         "-MQ",
                                         "-L",
                                         "-l",
                                         "-Xlinker",
                                         "-Xassembler",
                                         "-Xpreprocessor",
                                         "-Xclang",
                                         "-mllvm",
                                         "--param",
                                         "-T",
                                         "-u",
                                         "-e",
                                         "-z",
                                         "-arch",
                                         "-target",
                                         "--sysroot",
                                         "-B",
                                         "-aux-info",
                                         "-dumpdir",
                                         "-dumpbase",
                                         "-iwithprefixbefore",
                                         "-imultilib",
                                         "--serialize-diagnostics"};
  for (const char* o : kOptions) {
    if (a == o) return true;
  }
  return false;
}

bool is_source(std::string_view path) {
  static const char* const kExtensions[] = {".c", ".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C",
                                            ".i", ".ii", ".s",  ".S",   ".sx",  ".m",   ".mm"};
  for (const char* e : kExtensions) {
    if (ends_with(path, e)) return true;
  }
  return false;
}

// Link-only arguments, left out of the compile steps of a split invocation.
bool link_only(std::string_view a) {
  return starts_with(a, "-l") || starts_with(a, "-L") || starts_with(a, "-Wl,") || a == "-shared" || a == "-static" ||
         a == "-rdynamic" || a == "-pie" || a == "-no-pie" || a == "-static-libgcc" || a == "-static-libstdc++" ||
         a == "-nostdlib" || a == "-nodefaultlibs" || a == "-nostartfiles";
}

struct Arg {
  std::string text;
  bool input = false;   // a file operand
  bool source = false;  // compiled (by extension or an active -x)
  bool value = false;   // the value of the previous option
};

int run(const std::vector<std::string>& argv) {
  std::vector<char*> c_argv;
  for (const std::string& a : argv) c_argv.push_back(const_cast<char*>(a.c_str()));
  c_argv.push_back(nullptr);
  if (getenv("RACEACCEL_WRAPPER_VERBOSE") != nullptr) {
    for (const std::string& a : argv) std::fprintf(stderr, "%s ", a.c_str());
    std::fprintf(stderr, "\n");
  }
  pid_t pid = 0;
  if (posix_spawnp(&pid, c_argv[0], nullptr, nullptr, c_argv.data(), environ) != 0) {
    std::fprintf(stderr, "raceaccel-cc: cannot run %s: %s\n", c_argv[0], std::strerror(errno));
    return 127;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return kWrapperError;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string self_directory() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = '\0';
  return fs::path(buf).parent_path().string();
}

// Whether any argument (not an option's value) is one of `options`.
bool has_option(const std::vector<Arg>& args, std::initializer_list<std::string_view> options) {
  for (const Arg& a : args) {
    if (a.value) continue;
    for (const std::string_view o : options) {
      if (a.text == o) return true;
    }
  }
  return false;
}
// A fully static link, which cannot take the runtime (a shared object).
bool links_statically(const std::vector<Arg>& args) { return has_option(args, {"-static", "-static-pie"}); }
// Whether a link makes an executable (not a shared object, not a
// relocatable object).
bool links_relocatable(const std::vector<Arg>& args) { return has_option(args, {"-r", "-Wl,-r", "-Wl,--relocatable"}); }
bool links_executable(const std::vector<Arg>& args) {
  return !links_relocatable(args) && !has_option(args, {"-shared", "-Wl,-shared", "-Wl,-Bshareable"});
}

// The first of the installed and the build-tree locations that exists; the
// installed one when neither does (its path is then in the error message).
std::string find_runtime(const fs::path& self_dir) {
  const fs::path installed = (self_dir / RACEACCEL_RUNTIME_RELATIVE_DIR / "libraceaccel_rt.so").lexically_normal();
  const fs::path build_tree = (self_dir / ".." / "lib" / "libraceaccel_rt.so").lexically_normal();
  if (!fs::exists(installed) && fs::exists(build_tree)) return build_tree.string();
  return installed.string();
}

}  // namespace

int main(int argc, char** argv) {
  const bool cxx = ends_with(fs::path(argv[0]).filename().string(), "++");
  const char* env_compiler = getenv(cxx ? "RACEACCEL_CXX" : "RACEACCEL_CC");
  const std::string compiler = env_compiler != nullptr && *env_compiler != '\0'
                                   ? env_compiler
                                   : (cxx ? RACEACCEL_DEFAULT_CXX : RACEACCEL_DEFAULT_CC);
  const std::string compiler_name = fs::path(compiler).filename().string();
  const bool clang = compiler_name.find("clang") != std::string::npos;

  const std::string runtime = find_runtime(self_directory());
  // Vectorized loops at 16 bytes at most: the compilers' ThreadSanitizer
  // passes instrument accesses of 1 to 16 bytes only, so a loop vectorized
  // with 32- or 64-byte accesses (-mavx2, -march=native) would be checked by
  // nobody (wide_vector_loop_race; TSan misses it too). A flag of the
  // program's own comes later and wins.
  std::vector<std::string> instrument = {"-fsanitize=thread", "-g", "-mprefer-vector-width=128"};
  // clang emits no .debug_aranges by default, and the runtime's symbolizer
  // (elfutils 0.188) finds line tables through them.
  instrument.push_back(clang ? "-gdwarf-aranges" : "-Wno-tsan");

  // Classify the arguments.
  std::vector<Arg> args;
  bool link = true, info_only = false, any_input = false, language_forced = false;
  for (int i = 1; i < argc; ++i) {
    Arg a{argv[i]};
    const std::string_view t = a.text;
    if (!args.empty() && args.back().value == false && takes_separate_value(args.back().text) && !args.back().input) {
      a.value = true;
      if (args.back().text == "-x") language_forced = t != "none";
      args.push_back(a);
      continue;
    }
    if (t == "-c" || t == "-S" || t == "-E" || t == "-M" || t == "-MM" || t == "-fsyntax-only") link = false;
    if (t == "--version" || t == "-dumpversion" || t == "-dumpmachine" || t == "-###" || starts_with(t, "-print-") ||
        starts_with(t, "--print") || t == "--help") {
      info_only = true;
    }
    if (starts_with(t, "-x") && t.size() > 2) language_forced = t.substr(2) != "none";
    if (t == "-" || !starts_with(t, "-")) {
      a.input = true;
      a.source = language_forced || is_source(t);
      any_input = true;
    }
    args.push_back(a);
  }

  std::vector<std::string> cmd{compiler};
  if (info_only || !any_input) {
    for (const Arg& a : args) cmd.push_back(a.text);
    return run(cmd);
  }
  if (link && links_statically(args)) {
    std::fprintf(stderr,
                 "raceaccel-cc: -static is not supported: the runtime is a shared library "
                 "(link dynamically; -static-libgcc and -static-libstdc++ are fine)\n");
    return kWrapperError;
  }
  if (!fs::exists(runtime) && link) {
    std::fprintf(stderr, "raceaccel-cc: the runtime %s is missing (in a build tree, build the raceaccel_rt target)\n",
                 runtime.c_str());
    return kWrapperError;
  }
  // The runtime comes before the program's own objects and libraries: the
  // first DT_NEEDED, so that its malloc, pthread and libc interceptors come
  // first in the dynamic linker's search after the executable, also ahead of
  // a library the program links that defines the same functions (a malloc
  // replacement such as -ljemalloc: linked after it, the runtime would see
  // no allocation and report glibc's reuse of freed memory as races).
  // An executable also gets the access callbacks linked in (hot_path.hpp):
  // called directly, their TLS at fixed offsets. The whole archive, since it
  // comes before the objects that call into it (and a symbol the runtime
  // already defines would pull no member). Not a shared object or a
  // relocatable link (the archive's TLS is local-exec), and not when
  // RACEACCEL_STATIC_CALLBACKS=0 (the runtime's own callbacks then, as for a
  // program linked without the wrapper). A relocatable link (-r) makes an
  // object for a later link, which takes the runtime: nothing is added.
  std::vector<std::string> runtime_first;
  std::vector<std::string> link_flags;
  if (!links_relocatable(args)) {
    const std::string fast_archive = (fs::path(runtime).parent_path() / "libraceaccel_rt_fast.a").string();
    const char* static_callbacks = getenv("RACEACCEL_STATIC_CALLBACKS");
    if (links_executable(args) && fs::exists(fast_archive) &&
        (static_callbacks == nullptr || std::string_view(static_callbacks) != "0")) {
      runtime_first.insert(runtime_first.end(), {"-Wl,--whole-archive", fast_archive, "-Wl,--no-whole-archive"});
    }
    runtime_first.insert(runtime_first.end(), {"-Wl,--push-state,--no-as-needed", runtime, "-Wl,--pop-state"});
    link_flags = {"-pthread", "-Wl,-rpath," + fs::path(runtime).parent_path().string()};
  }

  if (!link) {  // compile only
    cmd.insert(cmd.end(), instrument.begin(), instrument.end());
    for (const Arg& a : args) cmd.push_back(a.text);
    return run(cmd);
  }

  bool any_source = false;
  for (const Arg& a : args) any_source |= a.source;
  std::string temp_dir;
  std::vector<std::string> objects(args.size());
  if (any_source) {
    const char* tmp = getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/raceaccel-cc.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      std::fprintf(stderr, "raceaccel-cc: cannot create a temporary directory: %s\n", std::strerror(errno));
      return kWrapperError;
    }
    temp_dir = pattern;
    // Compile each source on its own; everything but outputs, inputs and
    // link-only options applies.
    for (size_t i = 0; i < args.size(); ++i) {
      if (!args[i].source) continue;
      objects[i] = temp_dir + "/" + std::to_string(i) + ".o";
      std::vector<std::string> compile{compiler};
      compile.insert(compile.end(), instrument.begin(), instrument.end());
      for (size_t j = 0; j < args.size(); ++j) {
        const Arg& a = args[j];
        if (a.input) continue;
        if (a.text == "-o" || (a.value && args[j - 1].text == "-o")) continue;
        if (link_only(a.text) && !a.value) continue;
        if ((a.text == "-Xlinker" || a.text == "-T" || a.text == "-u" || a.text == "-z" || a.text == "-e" ||
             a.text == "-l" || a.text == "-L")) {
          continue;
        }
        if (a.value && (args[j - 1].text == "-Xlinker" || args[j - 1].text == "-T" || args[j - 1].text == "-u" ||
                        args[j - 1].text == "-z" || args[j - 1].text == "-e" || args[j - 1].text == "-l" ||
                        args[j - 1].text == "-L")) {
          continue;
        }
        compile.push_back(a.text);
      }
      // The -x in effect for this source: the last one before it.
      compile.push_back("-c");
      compile.push_back(args[i].text);
      compile.push_back("-o");
      compile.push_back(objects[i]);
      if (const int status = run(compile); status != 0) {
        fs::remove_all(temp_dir);
        return status;
      }
    }
  }
  cmd.insert(cmd.end(), runtime_first.begin(), runtime_first.end());
  for (size_t i = 0; i < args.size(); ++i) {
    const Arg& a = args[i];
    if (a.text == "-fsanitize=thread") continue;
    if (a.source) {
      if (language_forced) cmd.push_back("-xnone");
      cmd.push_back(objects[i]);
    } else {
      cmd.push_back(a.text);
    }
  }
  cmd.insert(cmd.end(), link_flags.begin(), link_flags.end());
  const int status = run(cmd);
  if (!temp_dir.empty()) fs::remove_all(temp_dir);
  return status;
}
