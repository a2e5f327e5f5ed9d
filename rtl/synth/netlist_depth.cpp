// rac_netlist_depth: resources and logic depth of a synth_xilinx netlist
// (Yosys `write_json`), for `make synth` (rtl/synth/synth_block.sh).
//
//   rac_netlist_depth <netlist.json> <top> [block] [params]
//   rac_netlist_depth --line <block.json>       one line of the text report
//   rac_netlist_depth --header                  its column names
//   rac_netlist_depth --merge <out.json> <block.json>...   one JSON array
//   rac_netlist_depth --check <hardware.md> <report.json>
//       every block of the report has its row in the markdown table of
//       kernel-block synthesis figures (columns: block, parameters, LUT, FF,
//       BRAM36, MUXF, levels ...), and LUT, FF, BRAM36, MUXF and the worst
//       path's levels are within 5 % of the report's; exit 1 otherwise.
//
// prints one JSON object: the block, its parameters, the resources (LUT:
// LUT1-6 plus LUTRAM and SRL cells, as Vivado counts them; FF; CARRY; MUXF:
// MUXF7/8/9; BRAM36: RAMB36E2 + RAMB18E2 / 2; URAM; DSP) and the longest
// combinational path, overall and per endpoint class:
//   register_d     the D pin of a flip-flop
//   register_ctrl  its clock enable, set or reset
//   ram_address    a RAM's address pins (RAMB*: ADDR*, LUTRAM: A*, ADDR*, DPRA*)
//   ram_enable     a RAM's enables and write enables (EN*, WE*, REGCE*, RST*)
//   ram_data       a RAM's write data (DI*, DIN*, D)
//   other_cell     any other pin of a sequential or unknown cell (DSP, SRL)
//   output_port    a port of the block
// Paths start at flip-flop and RAM outputs, other sequential cells and the
// block's input ports. Every LUT, every MUXF7/F8/F9 and every CARRY4/8 of a
// chain is one level; a path's levels are reported split into lut, muxf and
// carry (plus other combinational cells), with its start and end. RAM cells
// (RAMB36E2/RAMB18E2, URAM288) stay in the graph as endpoints and start
// points (Yosys's `ltp` has no endpoints: the old report deleted the RAMs,
// so no path ended on a RAM pin). A LUTRAM is an endpoint for its write
// (address, data, write enable) and, its read being asynchronous, one LUT
// level from its address pins to its outputs.
#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using nlohmann::json;

struct Levels {
  int lut = 0, muxf = 0, carry = 0, other = 0;
  int total() const { return lut + muxf + carry + other; }
  bool operator<(const Levels& o) const {
    return total() != o.total() ? total() < o.total() : lut < o.lut;  // deeper, then more LUTs
  }
};

struct Path {
  Levels levels;
  std::string from;  // start: a cell output or an input port
  bool valid = false;
};

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

enum class Kind { Lut, Muxf, Carry, Comb, Ff, Ram, LutRam, Seq };

Kind kind_of(const std::string& type) {
  if (starts_with(type, "LUT") && type.size() == 4) return Kind::Lut;
  if (starts_with(type, "MUXF")) return Kind::Muxf;
  if (starts_with(type, "CARRY")) return Kind::Carry;
  if (type == "INV" || type == "BUF" || type == "VCC" || type == "GND") return Kind::Comb;
  if (starts_with(type, "FD")) return Kind::Ff;
  if (starts_with(type, "RAMB") || starts_with(type, "URAM")) return Kind::Ram;
  if (starts_with(type, "RAM")) return Kind::LutRam;  // RAM32M16, RAM64M8, RAM64X1D, ...: reads are combinational
  return Kind::Seq;                                   // DSP48E2, SRL*, anything else: a boundary
}

std::string pin_class(Kind k, const std::string& pin) {
  if (k == Kind::Ff) {
    if (pin == "D") return "register_d";
    if (pin == "C") return "";
    return "register_ctrl";
  }
  if (k == Kind::Ram || k == Kind::LutRam) {
    if (starts_with(pin, "CLK") || pin == "WCLK" || pin == "CLK") return "";
    if (starts_with(pin, "ADDR") || starts_with(pin, "DPRA") || (pin.size() >= 2 && pin[0] == 'A' && isdigit(pin[1])))
      return "ram_address";
    if (starts_with(pin, "EN") || starts_with(pin, "WE") || starts_with(pin, "REGCE") || starts_with(pin, "RST") ||
        starts_with(pin, "SSR"))
      return "ram_enable";
    if (starts_with(pin, "DI") || pin == "D" || starts_with(pin, "DIN")) return "ram_data";
    return "other_cell";
  }
  if (pin == "C" || pin == "CLK") return "";
  return "other_cell";
}

struct Cell {
  std::string name, type;
  std::string label;  // the name of the net it drives (first output bit), else its cell name
  std::vector<long> outputs;
  Kind kind = Kind::Seq;
  std::vector<std::pair<std::string, std::vector<long>>> inputs;  // pin, nets (-1: constant)
};

class Graph {
 public:
  explicit Graph(const json& module) {
    for (const auto& [name, c] : module.at("cells").items()) {
      Cell cell;
      cell.name = name;
      cell.type = c.at("type").get<std::string>();
      cell.kind = kind_of(cell.type);
      const auto& dirs = c.at("port_directions");
      for (const auto& [pin, bits] : c.at("connections").items()) {
        std::vector<long> nets;
        for (const auto& b : bits) nets.push_back(b.is_number() ? b.get<long>() : -1);
        if (dirs.at(pin) == "output") {
          cell.outputs.insert(cell.outputs.end(), nets.begin(), nets.end());
          for (size_t i = 0; i < nets.size(); ++i) {
            if (nets[i] >= 0) driver_[nets[i]] = {cells_.size(), pin + "[" + std::to_string(i) + "]"};
          }
        } else {
          cell.inputs.emplace_back(pin, nets);
        }
      }
      cells_.push_back(std::move(cell));
    }
    // A readable name per net bit (the RTL signal, not a $auto name), for
    // the start and end of a path.
    for (const auto& [name, n] : module.at("netnames").items()) {
      if (name.empty() || name[0] == '$') continue;
      const auto& bits = n.at("bits");
      for (size_t i = 0; i < bits.size(); ++i) {
        if (!bits[i].is_number()) continue;
        const long b = bits[i].get<long>();
        std::string label = bits.size() > 1 ? name + "[" + std::to_string(i) + "]" : name;
        auto it = net_name_.find(b);
        if (it == net_name_.end() || label.size() < it->second.size()) net_name_[b] = label;
      }
    }
    for (const auto& [name, p] : module.at("ports").items()) {
      std::vector<long> nets;
      for (const auto& b : p.at("bits")) nets.push_back(b.is_number() ? b.get<long>() : -1);
      if (p.at("direction") == "input") {
        for (long n : nets) {
          if (n >= 0) input_port_[n] = name;
        }
      } else {
        out_ports_.emplace_back(name, nets);
      }
    }
    for (Cell& c : cells_) {
      c.label = c.name;
      for (long n : c.outputs) {
        if (n >= 0 && net_name_.count(n)) {
          c.label = net_name_.at(n);
          break;
        }
      }
    }
    memo_.assign(cells_.size(), Path{});
    state_.assign(cells_.size(), 0);
  }

  // The deepest path arriving at net n (its driver's output).
  Path arriving(long n) {
    Path p;
    if (n < 0) return p;
    auto d = driver_.find(n);
    if (d == driver_.end()) {
      auto in = input_port_.find(n);
      if (in != input_port_.end()) {
        p.valid = true;
        p.from = "port " + in->second;
      }
      return p;
    }
    const Cell& c = cells_[d->second.first];
    if (c.kind == Kind::LutRam) return through(d->second.first);
    if (c.kind == Kind::Ff || c.kind == Kind::Ram || c.kind == Kind::Seq) {
      p.valid = true;
      p.from = c.type + " " + net_label(n);
      return p;
    }
    return through(d->second.first);
  }

  // The deepest path through combinational cell i, its own level included.
  Path through(size_t i) {
    if (state_[i] == 2) return memo_[i];
    if (state_[i] == 1) throw std::runtime_error("combinational loop through " + cells_[i].name);
    state_[i] = 1;
    Path best;
    for (const auto& [pin, nets] : cells_[i].inputs) {
      // A LUTRAM's output depends combinationally on its read address only.
      if (cells_[i].kind == Kind::LutRam && pin_class(Kind::LutRam, pin) != "ram_address") continue;
      for (long n : nets) {
        Path p = arriving(n);
        if (p.valid && (!best.valid || best.levels < p.levels)) best = p;
      }
    }
    if (!best.valid) best.from = "constant";
    best.valid = true;
    switch (cells_[i].kind) {
      case Kind::Lut:
      case Kind::LutRam: ++best.levels.lut; break;
      case Kind::Muxf: ++best.levels.muxf; break;
      case Kind::Carry: ++best.levels.carry; break;
      default: ++best.levels.other; break;
    }
    memo_[i] = best;
    state_[i] = 2;
    return best;
  }

  json depth() {
    std::map<std::string, std::pair<Path, std::string>> worst;  // class -> path, endpoint
    const auto consider = [&](const std::string& cls, const Path& p, const std::string& to) {
      if (cls.empty() || !p.valid) return;
      auto it = worst.find(cls);
      if (it == worst.end() || it->second.first.levels < p.levels) worst[cls] = {p, to};
    };
    for (const Cell& c : cells_) {
      if (c.kind == Kind::Lut || c.kind == Kind::Muxf || c.kind == Kind::Carry || c.kind == Kind::Comb) continue;
      for (const auto& [pin, nets] : c.inputs) {
        const std::string cls = pin_class(c.kind, pin);
        for (long n : nets) consider(cls, arriving(n), c.type + " " + c.label + " ." + pin);
      }
    }
    for (const auto& [name, nets] : out_ports_) {
      for (long n : nets) consider("output_port", arriving(n), "port " + name);
    }
    json by_class = json::object();
    json overall;
    Levels top;
    bool any = false;
    for (const auto& [cls, pe] : worst) {
      const Levels& l = pe.first.levels;
      json j = {{"levels", l.total()}, {"lut", l.lut},          {"muxf", l.muxf}, {"carry", l.carry},
                {"other", l.other},    {"from", pe.first.from}, {"to", pe.second}};
      by_class[cls] = j;
      if (!any || top < l) {
        top = l;
        overall = j;
        overall["endpoint"] = cls;
        any = true;
      }
    }
    return {{"worst", overall}, {"by_endpoint", by_class}};
  }

  json resources() const {
    std::map<std::string, long> count;
    for (const Cell& c : cells_) ++count[c.type];
    long lut = 0, ff = 0, carry = 0, muxf = 0, uram = 0, dsp = 0, ramb36 = 0, ramb18 = 0, lutram = 0;
    for (const auto& [t, n] : count) {
      if (starts_with(t, "LUT") && t.size() == 4)
        lut += n;
      else if (starts_with(t, "RAMB36"))
        ramb36 += n;
      else if (starts_with(t, "RAMB18"))
        ramb18 += n;
      else if (starts_with(t, "RAM") || starts_with(t, "SRL"))
        lutram += n;
      else if (starts_with(t, "FD"))
        ff += n;
      else if (starts_with(t, "CARRY"))
        carry += n;
      else if (starts_with(t, "MUXF"))
        muxf += n;
      else if (starts_with(t, "URAM"))
        uram += n;
      else if (starts_with(t, "DSP"))
        dsp += n;
    }
    return {{"lut", lut + lutram}, {"lutram", lutram}, {"ff", ff},
            {"carry", carry},      {"muxf", muxf},     {"bram36", static_cast<double>(ramb36) + ramb18 / 2.0},
            {"uram", uram},        {"dsp", dsp},       {"cells", count}};
  }

 private:
  std::vector<Cell> cells_;
  std::unordered_map<long, std::pair<size_t, std::string>> driver_;
  std::unordered_map<long, std::string> input_port_;
  std::unordered_map<long, std::string> net_name_;

  std::string net_label(long n) const {
    auto it = net_name_.find(n);
    return it == net_name_.end() ? "net " + std::to_string(n) : it->second;
  }
  std::vector<std::pair<std::string, std::vector<long>>> out_ports_;
  std::vector<Path> memo_;
  std::vector<int> state_;
};

json read_json(const char* path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("cannot read ") + path);
  return json::parse(in);
}

// "levels (LUT + MUXF + carry)" of a depth entry, "-" when absent.
std::string levels_text(const json& d) {
  if (d.is_null() || !d.contains("levels")) return "-";
  std::string s = std::to_string(d["levels"].get<int>()) + " (" + std::to_string(d["lut"].get<int>()) + "+" +
                  std::to_string(d["muxf"].get<int>()) + "+" +
                  std::to_string(d["carry"].get<int>() + d["other"].get<int>()) + ")";
  return s;
}

void print_header() {
  std::printf("%-18s %-34s %7s %7s %6s %7s  %-12s %-12s %-12s %-12s %-12s\n", "block", "params", "LUT", "FF", "BRAM36",
              "MUXF", "worst", "register_d", "ram_address", "ram_enable", "ram_data");
}

void print_line(const json& r) {
  const json& res = r.at("resources");
  const json& by = r.at("depth").at("by_endpoint");
  const auto cls = [&](const char* c) { return levels_text(by.contains(c) ? by.at(c) : json()); };
  std::printf("%-18s %-34s %7ld %7ld %6g %7ld  %-12s %-12s %-12s %-12s %-12s\n",
              r.at("block").get<std::string>().c_str(),
              r.at("params").get<std::string>().empty() ? "-" : r.at("params").get<std::string>().c_str(),
              res.at("lut").get<long>(), res.at("ff").get<long>(), res.at("bram36").get<double>(),
              res.at("muxf").get<long>(), levels_text(r.at("depth").at("worst")).c_str(), cls("register_d").c_str(),
              cls("ram_address").c_str(), cls("ram_enable").c_str(), cls("ram_data").c_str());
}

std::vector<std::string> split_row(const std::string& line) {
  std::vector<std::string> cells;
  std::string cur;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '|') {
      size_t b = cur.find_first_not_of(" `"), e = cur.find_last_not_of(" `");
      cells.push_back(b == std::string::npos ? "" : cur.substr(b, e - b + 1));
      cur.clear();
    } else {
      cur += line[i];
    }
  }
  return cells;
}

double number(const std::string& cell) {  // "2,121" -> 2121; "21 (6+0+15)" -> 21
  std::string digits;
  for (char c : cell) {
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.')
      digits += c;
    else if (c != ',')
      break;
  }
  return digits.empty() ? -1 : std::stod(digits);
}

int check(const char* doc_path, const char* report_path) {
  std::ifstream doc(doc_path);
  if (!doc) throw std::runtime_error(std::string("cannot read ") + doc_path);
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> rows;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("| rac_", 0) != 0 && line.rfind("| vc_", 0) != 0) continue;
    std::vector<std::string> cells = split_row(line);
    if (cells.size() >= 7) rows[{cells[0], cells[1]}] = cells;
  }
  int bad = 0;
  for (const json& r : read_json(report_path)) {
    const std::string block = r.at("block"), params = r.at("params").get<std::string>().empty() ? "-" : r.at("params");
    auto it = rows.find({block, params});
    if (it == rows.end()) {
      std::printf("MISSING %s %s: no row in %s\n", block.c_str(), params.c_str(), doc_path);
      ++bad;
      continue;
    }
    const json& res = r.at("resources");
    const std::pair<const char*, double> want[] = {{"LUT", res.at("lut").get<double>()},
                                                   {"FF", res.at("ff").get<double>()},
                                                   {"BRAM36", res.at("bram36").get<double>()},
                                                   {"MUXF", res.at("muxf").get<double>()},
                                                   {"levels", r.at("depth").at("worst").at("levels").get<double>()}};
    for (size_t k = 0; k < 5; ++k) {
      const double doc_value = number(it->second[2 + k]), measured = want[k].second;
      const bool ok = doc_value >= 0 && doc_value >= measured * 0.95 - 1e-9 && doc_value <= measured * 1.05 + 1e-9;
      if (!ok) {
        std::printf("DIFFERS %s %s %s: docs %s, measured %g (more than 5 %%)\n", block.c_str(), params.c_str(),
                    want[k].first, it->second[2 + k].c_str(), measured);
        ++bad;
      }
    }
    if (bad == 0) std::printf("ok %s %s\n", block.c_str(), params.c_str());
  }
  return bad == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--header") {
      print_header();
      return 0;
    }
    if (mode == "--line" && argc == 3) {
      print_line(read_json(argv[2]));
      return 0;
    }
    if (mode == "--check" && argc == 4) return check(argv[2], argv[3]);
    if (mode == "--merge" && argc >= 3) {
      json all = json::array();
      for (int i = 3; i < argc; ++i) all.push_back(read_json(argv[i]));
      std::ofstream(argv[2]) << all.dump(1) << "\n";
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rac_netlist_depth: %s\n", e.what());
    return 65;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <netlist.json> <top> [block] [params]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "rac_netlist_depth: cannot read %s\n", argv[1]);
    return 74;
  }
  try {
    const json netlist = json::parse(in);
    const auto& modules = netlist.at("modules");
    if (!modules.contains(argv[2])) {
      std::fprintf(stderr, "rac_netlist_depth: %s has no module %s\n", argv[1], argv[2]);
      return 65;
    }
    Graph g(modules.at(argv[2]));
    json out = {
        {"block", argc > 3 ? argv[3] : argv[2]}, {"params", argc > 4 ? argv[4] : ""}, {"resources", g.resources()}};
    out["depth"] = g.depth();
    std::cout << out.dump(1) << "\n";
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rac_netlist_depth: %s: %s\n", argv[1], e.what());
    return 65;
  }
  return 0;
}
