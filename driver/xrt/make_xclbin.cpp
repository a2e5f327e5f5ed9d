// rac_make_xclbin OUT: writes a card image that XRT's noop emulation
// accepts, built from the structures of <xrt/xclbin.h> (Vitis' xclbinutil
// is not installed here). It holds no bitstream, only what the host API
// reads: MEM_TOPOLOGY (one DDR bank), IP_LAYOUT (rac_kernel as an ap_ctrl_hs
// compute unit), CONNECTIVITY (the four pointer arguments on that bank) and
// EMBEDDED_METADATA (kernel XML with the contract's arguments, generated
// from driver/rac_kernel_regs.hpp). Used by the XRT tests (docs/driver.md).
#include <xrt/xclbin.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "driver/rac_kernel_regs.hpp"

namespace {

using raceaccel::regs::Group;
using raceaccel::regs::kKernelName;
using raceaccel::regs::kRegisters;

constexpr uint64_t kControlBase = 0x1800000;  // the compute unit's s_axi_control base
constexpr uint64_t kBankBase = 0x4000000000;  // DDR bank 0

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return out;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string kernel_xml() {
  const std::string kernel(kKernelName);
  std::string ports =
      "          <port name=\"S_AXI_CONTROL\" mode=\"slave\" range=\"0x1000\" dataWidth=\"32\" "
      "portType=\"addressable\" base=\"0x0\"/>\n";
  std::string args;
  int id = 0;
  for (const auto& r : kRegisters) {
    if (r.group != Group::Argument) continue;
    const bool pointer = !r.port.empty();
    const std::string port = pointer ? upper(r.port) : "S_AXI_CONTROL";
    if (pointer) {
      ports += "          <port name=\"" + port +
               "\" mode=\"master\" range=\"0xFFFFFFFFFFFFFFFF\" dataWidth=\"512\" portType=\"addressable\" "
               "base=\"0x0\"/>\n";
    }
    const std::string size = r.bits == 64 ? "0x8" : "0x4";
    args += "          <arg name=\"" + std::string(r.name) + "\" addressQualifier=\"" + (pointer ? "1" : "0") +
            "\" id=\"" + std::to_string(id++) + "\" port=\"" + port + "\" size=\"" + size + "\" offset=\"" +
            hex(r.offset) + "\" hostOffset=\"0x0\" hostSize=\"" + size + "\" type=\"" + (pointer ? "void*" : "uint") +
            "\"/>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<project name=\"raceaccel\">\n"
         "  <platform vendor=\"raceaccel\" boardid=\"noop\" name=\"noop\" featureRomTime=\"0\">\n"
         "    <version major=\"1\" minor=\"0\"/>\n"
         "    <description/>\n"
         "    <board name=\"noop\" vendor=\"raceaccel\" fpga=\"\"/>\n"
         "    <device name=\"fpga0\" fpgaDevice=\"\" addrWidth=\"0\">\n"
         "      <core name=\"OCL_REGION_0\" target=\"bitstream\" type=\"clc_region\" clockFreq=\"300MHz\" "
         "numComputeUnits=\"1\">\n"
         "        <kernel name=\"" +
         kernel + "\" language=\"ip_c\" vlnv=\"raceaccel:kernel:" + kernel +
         ":1.0\" preferredWorkGroupSizeMultiple=\"0\" workGroupSize=\"1\" interrupt=\"true\" "
         "hwControlProtocol=\"ap_ctrl_hs\">\n" +
         ports + args +
         "          <compileWorkGroupSize x=\"1\" y=\"1\" z=\"1\"/>\n"
         "          <maxWorkGroupSize x=\"1\" y=\"1\" z=\"1\"/>\n"
         "        </kernel>\n"
         "        <instance name=\"" +
         kernel +
         "_1\">\n"
         "          <addrRemap base=\"" +
         hex(kControlBase) +
         "\" range=\"0x10000\" port=\"S_AXI_CONTROL\"/>\n"
         "        </instance>\n"
         "      </core>\n"
         "    </device>\n"
         "  </platform>\n"
         "</project>\n";
}

template <typename T>
std::vector<char> bytes_of(const T& value, size_t size = sizeof(T)) {
  std::vector<char> out(size, 0);
  std::memcpy(out.data(), &value, std::min(size, sizeof(T)));
  return out;
}

std::vector<char> mem_topology_section() {
  ::mem_topology m{};
  m.m_count = 1;
  m.m_mem_data[0].m_type = MEM_DDR4;
  m.m_mem_data[0].m_used = 1;
  m.m_mem_data[0].m_size = 4 * 1024 * 1024;  // KB: 4 GB
  m.m_mem_data[0].m_base_address = kBankBase;
  std::strncpy(reinterpret_cast<char*>(m.m_mem_data[0].m_tag), "bank0", sizeof m.m_mem_data[0].m_tag - 1);
  return bytes_of(m);
}

std::vector<char> ip_layout_section() {
  ::ip_layout l{};
  l.m_count = 1;
  l.m_ip_data[0].m_type = IP_KERNEL;
  l.m_ip_data[0].properties = (AP_CTRL_HS << IP_CONTROL_SHIFT) | IP_INT_ENABLE_MASK;
  l.m_ip_data[0].m_base_address = kControlBase;
  const std::string name = std::string(kKernelName) + ":" + std::string(kKernelName) + "_1";
  std::strncpy(reinterpret_cast<char*>(l.m_ip_data[0].m_name), name.c_str(), sizeof l.m_ip_data[0].m_name - 1);
  return bytes_of(l);
}

std::vector<char> connectivity_section() {
  std::vector<connection> links;
  int index = 0;
  for (const auto& r : kRegisters) {
    if (r.group != Group::Argument) continue;
    if (!r.port.empty()) links.push_back({index, 0, 0});
    ++index;
  }
  std::vector<char> out(sizeof(int32_t) + links.size() * sizeof(connection), 0);
  const auto count = static_cast<int32_t>(links.size());
  std::memcpy(out.data(), &count, sizeof count);
  std::memcpy(out.data() + sizeof count, links.data(), links.size() * sizeof(connection));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: rac_make_xclbin OUT.xclbin\n");
    return 2;
  }
  const std::string xml = kernel_xml();
  struct Section {
    axlf_section_kind kind;
    const char* name;
    std::vector<char> data;
  };
  std::vector<Section> sections = {
      {MEM_TOPOLOGY, "mem_topology", mem_topology_section()},
      {IP_LAYOUT, "ip_layout", ip_layout_section()},
      {CONNECTIVITY, "connectivity", connectivity_section()},
      {EMBEDDED_METADATA, "metadata", std::vector<char>(xml.begin(), xml.end())},
  };
  const auto align8 = [](size_t n) { return (n + 7) / 8 * 8; };
  const size_t header = sizeof(axlf) + (sections.size() - 1) * sizeof(axlf_section_header);
  std::vector<char> image(align8(header), 0);
  std::vector<axlf_section_header> headers;
  for (const Section& s : sections) {
    axlf_section_header h{};
    h.m_sectionKind = s.kind;
    std::strncpy(h.m_sectionName, s.name, sizeof h.m_sectionName - 1);
    h.m_sectionOffset = image.size();
    h.m_sectionSize = s.data.size();
    headers.push_back(h);
    image.insert(image.end(), s.data.begin(), s.data.end());
    image.resize(align8(image.size()), 0);
  }
  axlf top{};
  std::memcpy(top.m_magic, "xclbin2", 8);
  top.m_signature_length = -1;
  std::memset(top.reserved, 0xFF, sizeof top.reserved);
  top.m_header.m_length = image.size();
  top.m_header.m_versionMajor = 2;
  top.m_header.m_versionMinor = 13;
  top.m_header.m_mode = XCLBIN_FLAT;
  std::strncpy(reinterpret_cast<char*>(top.m_header.m_platformVBNV), "raceaccel:noop:rac_kernel:1.0",
               sizeof top.m_header.m_platformVBNV - 1);
  // A fixed uuid: the image is reproducible ("RACEACCELnoop" + version).
  const unsigned char uuid[16] = {'R', 'A', 'C', 'E', 'A', 'C', 'C', 'E', 'L', 'n', 'o', 'o', 'p', 0, 0, 1};
  std::memcpy(&top.m_header.uuid, uuid, sizeof uuid);
  top.m_header.m_numSections = static_cast<uint32_t>(sections.size());
  std::memcpy(image.data(), &top, sizeof top - sizeof(axlf_section_header));
  std::memcpy(image.data() + offsetof(axlf, m_sections), headers.data(), headers.size() * sizeof(axlf_section_header));
  std::ofstream out(argv[1], std::ios::binary);
  out.write(image.data(), static_cast<std::streamsize>(image.size()));
  if (!out) {
    std::fprintf(stderr, "rac_make_xclbin: cannot write %s\n", argv[1]);
    return 74;
  }
  return 0;
}
