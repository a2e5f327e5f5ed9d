# ctest deployment.package_kernel_dry_run:
#   tclsh package_kernel_dry_run.tcl ROOT WORK
# Runs constraints/vitis/package_kernel.tcl in plain tclsh with every Vivado
# command it uses replaced by a stand-in that records the call. It checks
# what can be checked without Vivado: the script parses and runs to the end,
# adds the packages before the modules, declares the interfaces Vitis needs,
# builds the s_axi_control register map from kernel.xml (every argument at
# its offset, the pointers tied to their m_axi masters) and calls package_xo
# with the generated kernel.xml. It does not show that Vivado accepts the
# commands: Vivado is not installed here (docs/deployment.md).

set root [file normalize [lindex $argv 0]]
set test_work [file normalize [lindex $argv 1]]
set calls {}
proc record {args} { lappend ::calls $args }

# Object handles are plain strings; queries of objects that do not exist yet
# return "" so the script's "add if missing" paths run.
proc create_project {args} { record create_project {*}$args }
proc current_project {args} { return project }
proc get_filesets {name} { return $name }
proc get_files {name} { return $name }
proc add_files {args} { record add_files {*}$args }
proc set_property {args} { record set_property {*}$args }
proc synth_design {args} { record synth_design {*}$args }
proc report_utilization {args} {}
proc report_timing_summary {args} {}
proc close_design {args} {}
proc get_property {name object} { return $object }
proc close_project {args} { record close_project }
proc package_xo {args} { record package_xo {*}$args }
namespace eval ipx {
  proc package_project {args} { ::record ipx::package_project {*}$args }
  proc current_core {} { return core }
  # All of them with -of_objects only; with a name first, that one if it exists.
  proc get_user_parameters {args} {
    set all {NumSlots ClkW Sets Ways ReplPolicy Objects ReadVcs SlotW LineW EscRecBytes}
    if {[lindex $args 0] eq "-of_objects"} { return $all }
    return [expr {[lsearch -exact $all [lindex $args 0]] >= 0 ? [lindex $args 0] : ""}]
  }
  proc get_hdl_parameters {name args} { return "hdl:$name" }
  proc remove_user_parameter {name core} { ::record ipx::remove_user_parameter $name }
  # As Vivado infers them from rac_kernel's port names.
  proc get_bus_interfaces {name args} {
    if {$name in {ap_clk ap_rst_n interrupt s_axi_control m_axi_cmd m_axi_race m_axi_esc m_axi_meta}} {
      return "busif:$name"
    }
    return ""
  }
  proc infer_bus_interface {args} { ::record ipx::infer_bus_interface {*}$args }
  proc get_bus_parameters {args} { return "" }
  proc add_bus_parameter {name busif} {
    ::record ipx::add_bus_parameter $name $busif
    return "param:$busif:$name"
  }
  proc associate_bus_interfaces {args} { ::record ipx::associate_bus_interfaces {*}$args }
  proc add_memory_map {name core} { ::record ipx::add_memory_map $name; return "mm:$name" }
  proc add_address_block {name mm} { ::record ipx::add_address_block $name $mm; return "block:$name" }
  proc add_register {name block} { ::record ipx::add_register $name $block; return "reg:$name" }
  proc add_register_parameter {name reg} { ::record ipx::add_register_parameter $name $reg; return "regparam:$reg:$name" }
  proc create_xgui_files {core} {}
  proc update_checksums {core} {}
  proc check_integrity {args} { ::record ipx::check_integrity {*}$args }
  proc save_core {core} { ::record ipx::save_core }
}

# The script sets globals of its own (root, work, ...); test_work is ours.
# run_script EXTRA_ARGS: the script on a fresh call log, as Vivado runs it
# (at global level), with the given arguments after the part.
proc run_script {extra} {
  set ::calls {}
  set ::argv [concat [list $::root [file join $::test_work package] [file join $::test_work rac_kernel.xo] \
      xcu250-figd2104-2L-e] $extra]
  set ::argc [llength $::argv]
  uplevel #0 [list source [file join $::root constraints vitis package_kernel.tcl]]
}
# The shape's runs first (their calls checked at the end); the default run
# last, whose call log the checks below read.
run_script {slots=64 sets=4096 synth ways=8 pool=32}
set shape_calls $calls
set bad_shape [catch {run_script {colour=3}} bad_shape_message]
set bad_value [catch {run_script {slots=many}} bad_value_message]
set root_saved $root
run_script {}
set root $root_saved

set failures 0
proc check {condition message} {
  if {![uplevel 1 [list expr $condition]]} {
    puts stderr "FAIL: $message"
    incr ::failures
  }
}
proc called {pattern} {
  foreach c $::calls {
    if {[string match $pattern $c]} { return 1 }
  }
  return 0
}
proc call_index {pattern} {
  set i 0
  foreach c $::calls {
    if {[string match $pattern $c]} { return $i }
    incr i
  }
  return -1
}

# Sources: packages first, then the modules (rac_kernel among them); the header.
set first_add [lindex $calls [call_index {add_files -norecurse -fileset sources_1 *}]]
set files [lindex $first_add 4]
check {[file tail [lindex $files 0]] eq "rac_pkg.sv"} "rac_pkg.sv is not the first source ($files)"
check {[file tail [lindex $files 1]] eq "rac_kernel_regs_pkg.sv"} "rac_kernel_regs_pkg.sv is not the second source"
check {[file tail [lindex $files 2]] eq "rac_line_layout_pkg.sv"} "rac_line_layout_pkg.sv is not the third source"
check {[lsearch -glob $files */rtl/rac_kernel.sv] >= 0} "rac_kernel.sv is not added"
check {[llength $files] == [llength [glob -directory [file join $root rtl] *.sv]]} "not every rtl/*.sv is added"
check {[called {set_property file_type {Verilog Header} */rtl/rac_assert.svh}]} "rac_assert.svh is not a header"
check {[called {set_property top rac_kernel sources_1}]} "top is not rac_kernel"
check {[called {set_property USED_IN {synthesis out_of_context} */constraints/vitis/kernel_ooc.xdc}]} "kernel_ooc.xdc is not out-of-context only"

# Interfaces.
foreach busif {s_axi_control m_axi_cmd m_axi_race m_axi_esc m_axi_meta} {
  check {[called "ipx::associate_bus_interfaces -busif $busif -clock ap_clk core"]} "$busif is not associated with ap_clk"
}
check {[called {ipx::associate_bus_interfaces -clock ap_clk -reset ap_rst_n core}]} "ap_rst_n is not associated with ap_clk"
foreach busif {m_axi_cmd m_axi_race m_axi_esc m_axi_meta} {
  check {[called "set_property value 0 param:busif:$busif:HAS_BURST"]} "$busif: HAS_BURST is not 0"
}
check {[called {set_property value ACTIVE_LOW param:busif:ap_rst_n:POLARITY}]} "ap_rst_n is not active low"
check {[called {set_property sdx_kernel true core}]} "sdx_kernel is not set"
check {[called {set_property sdx_kernel_type rtl core}]} "sdx_kernel_type is not rtl"
check {[called {ipx::remove_user_parameter NumSlots}]} "user parameters are not removed"

# Register map: the control block and the nine arguments of kernel.xml.
set expected {
  CTRL 0x000 32 {} GIER 0x004 32 {} IP_IER 0x008 32 {} IP_ISR 0x00C 32 {}
  commands 0x10 64 m_axi_cmd command_words 0x18 32 {} flags 0x1c 32 {}
  races 0x20 64 m_axi_race race_capacity 0x28 32 {} escalations 0x30 64 m_axi_esc
  esc_capacity 0x38 32 {} buckets 0x40 64 m_axi_meta bucket_bits 0x48 32 {}
}
foreach {name offset bits busif} $expected {
  check {[called "ipx::add_register $name block:reg0"]} "no register $name"
  check {[called "set_property address_offset $offset reg:$name"]} "$name is not at $offset"
  check {[called "set_property size $bits reg:$name"]} "$name is not $bits bits"
  if {$busif ne ""} {
    check {[called "set_property value $busif regparam:reg:$name:ASSOCIATED_BUSIF"]} "$name is not tied to $busif"
  }
}
check {[llength [lsearch -all -glob $calls {ipx::add_register *}]] == 13} "expected 13 registers"
check {[called {set_property slave_memory_map_ref s_axi_control busif:s_axi_control}]} "s_axi_control has no memory map"

# Order: integrity check and save before package_xo, which is last.
set xo_call [lindex $calls end]
check {[lindex $xo_call 0] eq "package_xo"} "package_xo is not the last call"
check {[call_index {ipx::check_integrity -kernel core}] >= 0} "no ipx::check_integrity -kernel"
check {[call_index {ipx::save_core}] < [call_index {package_xo *}]} "the core is not saved before package_xo"
set expected_xo [list package_xo -force -xo_path [file join $test_work rac_kernel.xo] -kernel_name rac_kernel \
    -ip_directory [file join $test_work package ip] -kernel_xml [file join $root constraints vitis kernel.xml]]
check {$xo_call eq $expected_xo} "package_xo call: got '$xo_call', expected '$expected_xo'"

# make xclbin SHAPE="slots=64 sets=4096 ways=8 pool=32": the parameters
# reach the synthesis check (generics) and the packaged IP (user and HDL
# parameters at the shape's values); the others are removed as without a shape.
set calls $shape_calls
check {[called {set_property generic {NumSlots=64 Sets=4096 Ways=8 ReadVcs=32} sources_1}]} \
    "shape: no generics on sources_1"
check {[call_index {set_property generic *}] < [call_index {synth_design *}]} "shape: generics set after synthesis"
foreach {param value} {NumSlots 64 Sets 4096 Ways 8 ReadVcs 32} {
  check {[called "set_property value $value $param"]} "shape: user parameter $param is not $value"
  check {[called "set_property value $value hdl:$param"]} "shape: HDL parameter $param is not $value"
  check {![called "ipx::remove_user_parameter $param"]} "shape: user parameter $param removed"
}
foreach param {ClkW ReplPolicy Objects SlotW LineW EscRecBytes} {
  check {[called "ipx::remove_user_parameter $param"]} "shape: user parameter $param not removed"
}
check {[lindex $calls end 0] eq "package_xo"} "shape: package_xo is not the last call"
check {$bad_shape && [string match {*'colour=3' is not synth nor a shape parameter*} $bad_shape_message]} \
    "unknown shape name: [expr {$bad_shape ? $bad_shape_message : {no error}}]"
check {$bad_value && [string match {*'slots=many'*} $bad_value_message]} "non-numeric shape value accepted"

if {$failures} {
  puts stderr "$failures check(s) failed"
  exit 1
}
puts "ok: [llength $calls] Vivado calls recorded"
