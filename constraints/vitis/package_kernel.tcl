# Packages rtl/rac_kernel.sv as a Vitis RTL kernel (an .xo file for v++ --link).
#
#   vivado -mode batch -source constraints/vitis/package_kernel.tcl \
#          -tclargs <repo root> <work dir> <xo path> [<part>] [synth] [NAME=VALUE ...]
#
# NAME=VALUE pairs set the kernel's shape with rac_kernel's own parameter
# names (NumSlots, ClkW, Sets, Ways, Objects, ReadVcs, BucketWays). make
# xclbin SHAPE="slots=64 sets=4096 ..." (docs/deployment.md) passes what
# `raceaccel shape` made of the SHAPE words: every one of these parameters,
# checked against the RTL's limits. Unnamed ones keep the RTL default; the
# capability registers tell the host the shape either way.
#
# Steps (UG1393/UG1700 "Packaging the RTL Code as a Vitis XO"):
#   1. a throw-away Vivado project holding rtl/*.sv (the two packages first),
#      rtl/rac_assert.svh as a header and kernel_ooc.xdc (300 MHz on ap_clk,
#      out-of-context synthesis only);
#   2. optionally ("synth") an out-of-context synthesis of rac_kernel with
#      utilisation and timing reports, as UG1393 advises before packaging;
#   3. ipx::package_project, then the interfaces Vitis requires: every AXI
#      interface and the reset associated with ap_clk, the control register
#      map of s_axi_control (read from kernel.xml, so the JSON register map
#      stays the one source), sdx_kernel/sdx_kernel_type;
#   4. package_xo with constraints/vitis/kernel.xml (ap_ctrl_hs, the arguments
#      and their m_axi ports).
# Vivado is not installed on the project's machines: this script has not been
# run here (docs/deployment.md). Any Tcl error ends Vivado's batch mode with a
# non-zero status, which stops the Makefile.

if {$argc < 3} {
  puts stderr "usage: vivado -mode batch -source package_kernel.tcl -tclargs ROOT WORK_DIR XO_PATH \[PART\] \[synth\] \[NAME=VALUE ...\]"
  exit 2
}
set root    [file normalize [lindex $argv 0]]
set work    [file normalize [lindex $argv 1]]
set xo_path [file normalize [lindex $argv 2]]
# The part only names the project's device; the packaged IP declares support
# for every family (supported_families below), and v++ synthesises the kernel
# again for the platform's own part when it links.
set part    [expr {$argc > 3 ? [lindex $argv 3] : "xcu250-figd2104-2L-e"}]
# After the part: "synth" and the shape's NAME=VALUE pairs, in any order.
# A name or value the kernel does not have is an error before any project
# is made (Vivado's batch mode then exits non-zero and make stops).
set synth 0
set shape_names {NumSlots ClkW Sets Ways Objects ReadVcs BucketWays ReadVcWays}
set shape {}
foreach arg [lrange $argv 4 end] {
  if {$arg eq "synth"} {
    set synth 1
  } elseif {[regexp {^([A-Za-z]+)=([0-9]+)$} $arg -> name value] && $name in $shape_names} {
    dict set shape $name $value
  } else {
    error "package_kernel.tcl: '$arg' is not synth nor a shape parameter NAME=VALUE with NAME one of\
           [join $shape_names {, }] and a decimal VALUE"
  }
}

set kernel     rac_kernel
set rtl_dir    [file join $root rtl]
set vitis_dir  [file join $root constraints vitis]
set kernel_xml [file join $vitis_dir kernel.xml]
set ip_dir     [file join $work ip]
set m_axi_ports {m_axi_cmd m_axi_race m_axi_esc m_axi_meta}

file delete -force $work
file mkdir $work
file mkdir [file dirname $xo_path]

# ---- 1. Project and sources ---------------------------------------------------
create_project -force ${kernel}_pkg [file join $work project] -part $part
# Manual compile order: the packages must be read before the modules using them.
set_property source_mgmt_mode None [current_project]
set packages [list [file join $rtl_dir rac_pkg.sv] [file join $rtl_dir rac_kernel_regs_pkg.sv] \
                [file join $rtl_dir rac_line_layout_pkg.sv]]
set modules {}
foreach f [lsort [glob -directory $rtl_dir *.sv]] {
  if {[lsearch -exact $packages $f] < 0} { lappend modules $f }
}
add_files -norecurse -fileset sources_1 [concat $packages $modules]
set header [file join $rtl_dir rac_assert.svh]
add_files -norecurse -fileset sources_1 $header
set_property file_type {Verilog Header} [get_files $header]
set_property include_dirs [list $rtl_dir] [get_filesets sources_1]
set_property top $kernel [get_filesets sources_1]
# The shape as top-level generics: the out-of-context synthesis check below
# and the packager see the same parameters.
if {[dict size $shape] > 0} {
  set generics {}
  dict for {name value} $shape { lappend generics "$name=$value" }
  set_property generic $generics [get_filesets sources_1]
}

set ooc_xdc [file join $vitis_dir kernel_ooc.xdc]
add_files -norecurse -fileset constrs_1 $ooc_xdc
set_property USED_IN {synthesis out_of_context} [get_files $ooc_xdc]

# ---- 2. Optional out-of-context synthesis check ----------------------------------
if {$synth} {
  synth_design -top $kernel -part $part -mode out_of_context
  report_utilization -file [file join $work ${kernel}_utilization.rpt]
  report_timing_summary -file [file join $work ${kernel}_timing.rpt]
  close_design
}

# ---- 3. IP packaging ----------------------------------------------------------------
ipx::package_project -root_dir $ip_dir -vendor raceaccel -library kernel \
    -taxonomy /KernelIP -import_files -set_current true
set core [ipx::current_core]
set_property name $kernel $core
set_property version 1.0 $core
set_property core_revision 1 $core
# The kernel is built with the shape's parameters and the RTL's defaults
# for the rest; the capability registers (cap_slots, cap_sets, ...) tell the
# host which ones. A shape parameter keeps its user parameter, fixed at the
# shape's value (so that v++ instantiates the kernel with it), and its HDL
# parameter takes the same value; every other user parameter is removed,
# the derived ones (SlotW, LineW, EscRecBytes) included, so that they follow
# from the others as the RTL computes them.
foreach up [ipx::get_user_parameters -of_objects $core] {
  set name [get_property NAME $up]
  if {[dict exists $shape $name]} {
    set_property value [dict get $shape $name] $up
    set_property value [dict get $shape $name] [ipx::get_hdl_parameters $name -of_objects $core]
  } else {
    ipx::remove_user_parameter $name $core
  }
}
foreach name [dict keys $shape] {
  if {[ipx::get_user_parameters $name -of_objects $core] eq ""} {
    error "the packager found no parameter $name on $kernel (rtl/rac_kernel.sv)"
  }
}

proc require_bus_interface {core name} {
  set bif [ipx::get_bus_interfaces $name -of_objects $core]
  if {$bif eq ""} {
    error "IP packager did not infer the bus interface '$name' from the ports of rac_kernel"
  }
  return $bif
}

proc set_bus_parameter {core busif name value} {
  set bif [require_bus_interface $core $busif]
  set param [ipx::get_bus_parameters $name -of_objects $bif]
  if {$param eq ""} { set param [ipx::add_bus_parameter $name $bif] }
  set_property value $value $param
}

# Clock, reset and interrupt as signal interfaces (inferred from their names;
# made explicit where inference might be missing).
if {[ipx::get_bus_interfaces ap_clk -of_objects $core] eq ""} {
  ipx::infer_bus_interface ap_clk xilinx.com:signal:clock_rtl:1.0 $core
}
if {[ipx::get_bus_interfaces ap_rst_n -of_objects $core] eq ""} {
  ipx::infer_bus_interface ap_rst_n xilinx.com:signal:reset_rtl:1.0 $core
}
if {[ipx::get_bus_interfaces interrupt -of_objects $core] eq ""} {
  ipx::infer_bus_interface interrupt xilinx.com:signal:interrupt_rtl:1.0 $core
}
set_bus_parameter $core ap_rst_n POLARITY ACTIVE_LOW
set_bus_parameter $core interrupt SENSITIVITY LEVEL_HIGH

# AXI: one AXI4-Lite slave and four AXI4 masters (64-bit addresses, 512-bit
# data), all on ap_clk. The masters issue only INCR bursts of full 64-byte
# beats, which HAS_BURST=0 and SUPPORTS_NARROW_BURST=0 declare (UG1393's
# recommendation for kernel masters).
set_property interface_mode slave [require_bus_interface $core s_axi_control]
ipx::associate_bus_interfaces -busif s_axi_control -clock ap_clk $core
foreach port $m_axi_ports {
  set_property interface_mode master [require_bus_interface $core $port]
  ipx::associate_bus_interfaces -busif $port -clock ap_clk $core
  set_bus_parameter $core $port HAS_BURST 0
  set_bus_parameter $core $port SUPPORTS_NARROW_BURST 0
}
ipx::associate_bus_interfaces -clock ap_clk -reset ap_rst_n $core

# The s_axi_control register map, from the generated kernel.xml: the
# ap_ctrl_hs block at 0x00-0x0C, then one register per argument; a pointer
# names its m_axi master through ASSOCIATED_BUSIF.
set fh [open $kernel_xml r]
set xml [read $fh]
close $fh
set mm [ipx::add_memory_map s_axi_control $core]
set_property slave_memory_map_ref s_axi_control [ipx::get_bus_interfaces s_axi_control -of_objects $core]
set block [ipx::add_address_block reg0 $mm]
set_property range 0x1000 $block
foreach {name offset description} {
  CTRL   0x000 "bit0 ap_start, bit1 ap_done, bit2 ap_idle, bit3 ap_ready"
  GIER   0x004 "global interrupt enable"
  IP_IER 0x008 "interrupt enable: bit0 ap_done, bit1 ap_ready"
  IP_ISR 0x00C "interrupt status: bit0 ap_done, bit1 ap_ready (toggle on write)"
} {
  set reg [ipx::add_register $name $block]
  set_property address_offset $offset $reg
  set_property size 32 $reg
  set_property description $description $reg
}
set arg_count 0
foreach arg [regexp -all -inline {<arg [^>]*/>} $xml] {
  regexp {name="([^"]+)"} $arg -> name
  regexp {offset="([^"]+)"} $arg -> offset
  regexp {size="([^"]+)"} $arg -> size
  regexp {port="([^"]+)"} $arg -> port
  regexp {addressQualifier="([^"]+)"} $arg -> qualifier
  set reg [ipx::add_register $name $block]
  set_property address_offset $offset $reg
  set_property size [expr {8 * $size}] $reg
  if {$qualifier == 1} {
    set busif [ipx::add_register_parameter ASSOCIATED_BUSIF $reg]
    set_property value [string tolower $port] $busif
  }
  incr arg_count
}
if {$arg_count == 0} {
  error "no <arg> entries in $kernel_xml: regenerate it with cmake -P cmake/gen_regmap.cmake"
}

# What makes the IP a Vitis kernel.
set_property sdx_kernel true $core
set_property sdx_kernel_type rtl $core
# ap_clk takes the platform clock that v++ chooses, so the IP fixes no
# FREQ_HZ; vitis_drc names the control protocol for the kernel checks. Older
# Vivado releases lack these two properties; the protocol then comes from
# kernel.xml's hwControlProtocol alone.
foreach {property value} {ipi_drc {ignore_freq_hz true} vitis_drc {ctrl_protocol ap_ctrl_hs}} {
  if {[catch {set_property $property $value $core} message]} {
    puts "WARNING: $property not set ($message)"
  }
}
set_property supported_families { } $core
set_property auto_family_support_level level_2 $core

ipx::create_xgui_files $core
ipx::update_checksums $core
ipx::check_integrity -kernel $core
ipx::save_core $core
close_project

# ---- 4. The Xilinx object file ------------------------------------------------------
package_xo -force -xo_path $xo_path -kernel_name $kernel -ip_directory $ip_dir \
    -kernel_xml $kernel_xml
puts "wrote $xo_path"
