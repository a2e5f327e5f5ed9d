# Out-of-context clock for the Vitis kernel top rac_kernel: 300 MHz on
# ap_clk, the default frequency of the Alveo platforms' scalable clock 0 that
# v++ wires to ap_clk. package_kernel.tcl adds this file with USED_IN
# {synthesis out_of_context}, so it takes part only in the kernel's own
# out-of-context synthesis (UG1118 "Managing Out-of-Context Constraints");
# in the linked design the platform drives ap_clk and v++ sets its frequency
# (connectivity.cfg [clock]). No pins, no board clocks: those belong to the
# platform's shell.
create_clock -period 3.333 -name ap_clk [get_ports ap_clk]
