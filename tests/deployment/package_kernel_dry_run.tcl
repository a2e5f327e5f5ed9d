# ctest deployment.package_kernel_dry_run:
#   tclsh package_kernel_dry_run.tcl ROOT WORK RACEACCEL
# Runs constraints/vitis/package_kernel.tcl in plain tclsh with every Vivado
# command it uses replaced by a stand-in that records the call. It checks
# what can be checked without Vivado: the script parses and runs to the end,
# adds the packages before the modules, declares the interfaces Vitis needs,
# builds the s_axi_control register map from kernel.xml (every argument at
# its offset, the pointers tied to their m_axi masters) and calls package_xo
# with the generated kernel.xml, and that a shape's parameters are what
# package_xo packages (the stand-ins keep the IP's parameters, save_core
# writes them into the IP directory, package_xo reads them from there). It
# does not show that Vivado accepts the commands: Vivado is not installed
# here (docs/deployment.md).

set root [file normalize [lindex $argv 0]]
set test_work [file normalize [lindex $argv 1]]
set raceaccel [file normalize [lindex $argv 2]]
set calls {}
proc record {args} { lappend ::calls $args }

# Object handles are plain strings; queries of objects that do not exist yet
# return "" so the script's "add if missing" paths run.
proc create_project {args} { record create_project {*}$args }
proc current_project {args} { return project }
proc get_filesets {name} { return $name }
proc get_files {name} { return $name }
proc add_files {args} { record add_files {*}$args }
# The packaged IP's parameters as the stand-ins change them: user parameters
# (initially every parameter of rac_kernel at its RTL default) and HDL
# parameters ("hdl:NAME"). ipx::save_core writes them into the IP directory
# and package_xo reads them back from -ip_directory into ::packaged: what the
# .xo would hold.
proc reset_core {} {
  set ::user_params {NumSlots 8 ClkW 32 Sets 256 Ways 4 ReplPolicy 0 Objects 16 ReadVcs 16 BucketWays 4
                     SlotW 3 LineW 0 EscRecBytes 0}
  set ::hdl_params {}
  set ::ip_root ""
  set ::packaged {}
}
proc set_property {args} {
  record set_property {*}$args
  lassign $args property value object
  if {$property eq "value" && [llength $args] == 3} {
    if {[dict exists $::user_params $object]} { dict set ::user_params $object $value }
    if {[string match hdl:* $object]} { dict set ::hdl_params [string range $object 4 end] $value }
  }
}
proc synth_design {args} { record synth_design {*}$args }
proc report_utilization {args} {}
proc report_timing_summary {args} {}
proc close_design {args} {}
proc get_property {name object} { return $object }
proc close_project {args} { record close_project }
proc package_xo {args} {
  record package_xo {*}$args
  set fh [open [file join [lindex $args [expr {[lsearch -exact $args -ip_directory] + 1}]] component.params] r]
  set ::packaged [string trim [read $fh]]
  close $fh
}
namespace eval ipx {
  proc package_project {args} {
    ::record ipx::package_project {*}$args
    set ::ip_root [lindex $args [expr {[lsearch -exact $args -root_dir] + 1}]]
  }
  proc current_core {} { return core }
  # All of them with -of_objects only; with a name first, that one if it exists.
  proc get_user_parameters {args} {
    set all [dict keys $::user_params]
    if {[lindex $args 0] eq "-of_objects"} { return $all }
    return [expr {[lsearch -exact $all [lindex $args 0]] >= 0 ? [lindex $args 0] : ""}]
  }
  proc get_hdl_parameters {name args} { return "hdl:$name" }
  proc remove_user_parameter {name core} {
    ::record ipx::remove_user_parameter $name
    dict unset ::user_params $name
  }
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
  proc save_core {core} {
    ::record ipx::save_core
    file mkdir $::ip_root
    set fh [open [file join $::ip_root component.params] w]
    puts $fh [list user $::user_params hdl $::hdl_params]
    close $fh
  }
}

# The script sets globals of its own (root, work, ...); test_work is ours.
# run_script EXTRA_ARGS: the script on a fresh call log, as Vivado runs it
# (at global level), with the given arguments after the part.
proc run_script {extra} {
  set ::calls {}
  reset_core
  set ::argv [concat [list $::root [file join $::test_work package] [file join $::test_work rac_kernel.xo] \
      xcu250-figd2104-2L-e] $extra]
  set ::argc [llength $::argv]
  uplevel #0 [list source [file join $::root constraints vitis package_kernel.tcl]]
}
# The shape's runs first (their calls checked at the end); the default run
# last, whose call log the checks below read.
# The parameters as `raceaccel shape` makes them of SHAPE="slots=64
# sets=4096 ways=8 pool=32 bucket_ways=8" (what make xclbin passes on), the
# others at the RTL defaults.
set shape_params [exec $raceaccel shape slots=64 sets=4096 ways=8 pool=32 bucket_ways=8]
set expected_shape_params {NumSlots=64 ClkW=32 Sets=4096 Ways=8 Objects=16 ReadVcs=32 BucketWays=8}
run_script [linsert $shape_params 3 synth]
set shape_calls $calls
set shape_packaged $packaged
set bad_shape [catch {run_script {colour=3}} bad_shape_message]
set bad_value [catch {run_script {NumSlots=many}} bad_value_message]
set sweep_name [catch {run_script {slots=64}} sweep_name_message]
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

# Without a shape nothing is overridden: every user parameter is removed,
# so the .xo holds the RTL defaults.
check {$packaged eq [list user {} hdl {}]} "default: package_xo packaged '$packaged', expected no parameters"

# make xclbin SHAPE="slots=64 sets=4096 ways=8 pool=32 bucket_ways=8": the
# parameters reach the synthesis check (generics) and what package_xo
# packages (user and HDL parameters at the shape's values, every one of the
# seven); the others are removed as without a shape.
set calls $shape_calls
check {$shape_params eq $expected_shape_params} "raceaccel shape printed '$shape_params', expected '$expected_shape_params'"
check {[called [list set_property generic $shape_params sources_1]]} "shape: no generics $shape_params on sources_1"
check {[call_index {set_property generic *}] < [call_index {synth_design *}]} "shape: generics set after synthesis"
set expected_params {}
foreach word $shape_params {
  lassign [split $word =] param value
  dict set expected_params $param $value
}
check {[dict get $shape_packaged user] eq $expected_params} \
    "shape: package_xo packaged user parameters '[dict get $shape_packaged user]', expected '$expected_params'"
check {[dict get $shape_packaged hdl] eq $expected_params} \
    "shape: package_xo packaged HDL parameters '[dict get $shape_packaged hdl]', expected '$expected_params'"
foreach param {ReplPolicy SlotW LineW EscRecBytes} {
  check {[called "ipx::remove_user_parameter $param"]} "shape: user parameter $param not removed"
}
check {[lindex $calls end 0] eq "package_xo"} "shape: package_xo is not the last call"
check {$bad_shape && [string match {*'colour=3' is not synth nor a shape parameter*} $bad_shape_message]} \
    "unknown shape name: [expr {$bad_shape ? $bad_shape_message : {no error}}]"
check {$bad_value && [string match {*'NumSlots=many'*} $bad_value_message]} "non-numeric shape value accepted"
check {$sweep_name && [string match {*'slots=64' is not synth nor a shape parameter*} $sweep_name_message]} \
    "a sweep knob name reached the Tcl unconverted: [expr {$sweep_name ? $sweep_name_message : {no error}}]"

if {$failures} {
  puts stderr "$failures check(s) failed"
  exit 1
}
puts "ok: [llength $calls] Vivado calls recorded"
