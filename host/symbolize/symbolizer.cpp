#include "symbolize/symbolizer.hpp"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace raceaccel {
namespace {

std::string demangle(const char* name) {
  if (name == nullptr) return {};
  if (std::strncmp(name, "_Z", 2) != 0) return name;  // C names ("x" would demangle as a type)
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) return name;
  std::string s(out);
  std::free(out);
  return s;
}

std::string base_name(const char* path) {
  if (path == nullptr) return {};
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

// Objects without .debug_aranges (clang's default): elfutils 0.188 finds no
// line there, so look for the compilation unit that covers pc directly.
void line_from_units(Dwfl_Module* mod, Dwarf_Addr pc, Frame& f) {
  Dwarf_Addr bias = 0;
  for (Dwarf_Die* cu = dwfl_module_nextcu(mod, nullptr, &bias); cu != nullptr;
       cu = dwfl_module_nextcu(mod, cu, &bias)) {
    if (dwarf_haspc(cu, pc - bias) <= 0) continue;
    Dwarf_Line* line = dwarf_getsrc_die(cu, pc - bias);
    int lineno = 0;
    const char* file = line != nullptr ? dwarf_linesrc(line, nullptr, nullptr) : nullptr;
    if (file != nullptr && dwarf_lineno(line, &lineno) == 0) {
      f.file = file;
      f.line = lineno;
    }
    return;
  }
}

// The compilation unit covering pc (pc is module-relative after bias).
Dwarf_Die* unit_of(Dwfl_Module* mod, Dwarf_Addr pc, Dwarf_Addr* bias) {
  if (Dwarf_Die* cu = dwfl_module_addrdie(mod, pc, bias)) return cu;
  for (Dwarf_Die* cu = dwfl_module_nextcu(mod, nullptr, bias); cu != nullptr; cu = dwfl_module_nextcu(mod, cu, bias)) {
    if (dwarf_haspc(cu, pc - *bias) > 0) return cu;
  }
  return nullptr;
}

// A DIE's function name: the linkage name of its abstract origin if any
// (demangled: qualified C++ names), else its plain name.
std::string function_name(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  Dwarf_Die origin;
  Dwarf_Die* named = die;
  if (dwarf_attr_integrate(die, DW_AT_abstract_origin, &attr) != nullptr && dwarf_formref_die(&attr, &origin)) {
    named = &origin;
  }
  for (int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}) {
    if (dwarf_attr_integrate(named, at, &attr) != nullptr) {
      if (const char* linkage = dwarf_formstring(&attr)) return demangle(linkage);
    }
  }
  const char* name = dwarf_diename(named);
  return name != nullptr ? name : "";
}

// Inlined calls at pc, innermost first: each becomes a frame named after the
// inlined function, located where the inner code is; the frame after it is
// located at the inlined call (DW_AT_call_file/line). The last frame is the
// real function (its name from the symbol table, already in `base`).
std::vector<Frame> expand_inlined(Dwfl_Module* mod, Dwarf_Addr pc, const Frame& base) {
  std::vector<Frame> out;
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = unit_of(mod, pc, &bias);
  Dwarf_Die* scopes = nullptr;
  const int n = cu != nullptr ? dwarf_getscopes(cu, pc - bias, &scopes) : 0;
  Dwarf_Files* files = nullptr;
  size_t file_count = 0;
  if (cu != nullptr && dwarf_getsrcfiles(cu, &files, &file_count) != 0) files = nullptr;
  Frame at = base;  // the location within the current (inner) frame
  for (int i = 0; i < n; ++i) {
    if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) continue;
    Frame inlined = at;
    inlined.function = function_name(&scopes[i]);
    out.push_back(inlined);
    Dwarf_Attribute attr;
    Dwarf_Word file = 0, line = 0;
    at.file.clear();
    at.line = 0;
    if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &file) == 0 && files != nullptr) {
      if (const char* name = dwarf_filesrc(files, file, nullptr, nullptr)) at.file = name;
    }
    if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &line) == 0) at.line = static_cast<int>(line);
  }
  std::free(scopes);
  at.function = base.function;
  out.push_back(at);
  return out;
}

const Dwfl_Callbacks kCallbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = nullptr,
    .debuginfo_path = nullptr,
};

}  // namespace

std::optional<std::string> gnu_build_id(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  std::optional<std::string> id;
  if (elf != nullptr && elf_kind(elf) == ELF_K_ELF) {
    const void* bits = nullptr;
    const ssize_t n = dwelf_elf_gnu_build_id(elf, &bits);
    id = n > 0 ? std::string(static_cast<const char*>(bits), static_cast<size_t>(n)) : std::string();
  }
  if (elf != nullptr) elf_end(elf);
  ::close(fd);
  return id;
}

std::string build_id_hex(const std::string& raw) {
  std::string hex;
  for (const char c : raw) hex += fmt::format("{:02x}", static_cast<unsigned char>(c));
  return hex;
}

Symbolizer::Symbolizer(std::vector<ProgramModule> modules) : offline_(true), modules_(std::move(modules)) {}

std::vector<ProgramModule> Symbolizer::loaded_modules() {
  std::vector<ProgramModule> out;
  Dwfl* d = session(true);  // every module loaded by now
  if (d == nullptr) return out;
  auto each = [](Dwfl_Module* mod, void**, const char* name, Dwarf_Addr low, void* arg) -> int {
    Dwarf_Addr high = 0;
    dwfl_module_info(mod, nullptr, nullptr, &high, nullptr, nullptr, nullptr, nullptr);
    if (name != nullptr && name[0] == '/') {
      static_cast<std::vector<ProgramModule>*>(arg)->push_back({name, gnu_build_id(name).value_or(""), low, high});
    }
    return DWARF_CB_OK;
  };
  dwfl_getmodules(d, each, &out, 0);
  return out;
}

Symbolizer::~Symbolizer() {
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
}

Dwfl* Symbolizer::session(bool refresh) {
  // A forked child has the parent's modules but must read its own /proc.
  // A recording's modules are fixed.
  if (offline_) refresh = false;
  if (dwfl_ != nullptr && !offline_ && (refresh || pid_ != getpid())) {
    dwfl_end(dwfl_);
    dwfl_ = nullptr;
  }
  if (dwfl_ == nullptr) {
    dwfl_ = dwfl_begin(&kCallbacks);
    if (dwfl_ == nullptr) return nullptr;
    pid_ = getpid();
    dwfl_report_begin(dwfl_);
    if (offline_) {
      // As dwfl_linux_proc_report reports a live process's files: by path,
      // over their mapping (find_elf opens a path that starts with '/').
      for (const ProgramModule& m : modules_) dwfl_report_module(dwfl_, m.path.c_str(), m.low, m.high);
    } else {
      dwfl_linux_proc_report(dwfl_, pid_);
    }
    dwfl_report_end(dwfl_, nullptr, nullptr);
  }
  return dwfl_;
}

const std::vector<Frame>& Symbolizer::frames(uint64_t return_address) {
  auto cached = frames_.find(return_address);
  if (cached != frames_.end()) return cached->second;
  Frame f;
  std::vector<Frame> expanded;
  const Dwarf_Addr pc = return_address - 1;
  Dwfl* d = session(false);
  Dwfl_Module* mod = d != nullptr ? dwfl_addrmodule(d, pc) : nullptr;
  if (mod == nullptr && d != nullptr) {  // loaded after the session began (dlopen)
    d = session(true);
    mod = d != nullptr ? dwfl_addrmodule(d, pc) : nullptr;
  }
  if (mod != nullptr) {
    Dwarf_Addr low = 0;
    const char* name = dwfl_module_info(mod, nullptr, &low, nullptr, nullptr, nullptr, nullptr, nullptr);
    f.module_path = name != nullptr ? name : "";
    f.module = base_name(name);
    f.offset = pc - low;
    f.function = demangle(dwfl_module_addrname(mod, pc));
    if (Dwfl_Line* line = dwfl_module_getsrc(mod, pc)) {
      int lineno = 0;
      const char* file = dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr);
      if (file != nullptr) {
        f.file = file;
        f.line = lineno;
      }
    } else {
      line_from_units(mod, pc, f);
    }
    expanded = expand_inlined(mod, pc, f);
  }
  if (expanded.empty()) expanded.push_back(std::move(f));
  return frames_.emplace(return_address, std::move(expanded)).first->second;
}

std::optional<GlobalVariable> Symbolizer::global_at(uint64_t addr) {
  Dwfl* d = session(false);
  if (d == nullptr) return std::nullopt;
  Dwfl_Module* mod = dwfl_addrmodule(d, addr);
  if (mod == nullptr) return std::nullopt;
  GElf_Sym sym;
  GElf_Off off = 0;
  const char* name = dwfl_module_addrinfo(mod, addr, &off, &sym, nullptr, nullptr, nullptr);
  if (name == nullptr || GELF_ST_TYPE(sym.st_info) != STT_OBJECT || off >= sym.st_size) return std::nullopt;
  Dwarf_Addr low = 0;
  const char* module = dwfl_module_info(mod, nullptr, &low, nullptr, nullptr, nullptr, nullptr, nullptr);
  return GlobalVariable{demangle(name), addr - off, sym.st_size, base_name(module), addr - low};
}

}  // namespace raceaccel
