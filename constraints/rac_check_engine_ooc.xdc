# Out-of-context synthesis constraints for the check engine on its own
# (Vivado `synth_design -mode out_of_context -top rac_check_engine`), used
# to measure utilisation and worst negative slack at the kernel clock:
# 300 MHz, the Alveo platforms' default scalable clock (index 0). Add this
# file with USED_IN out_of_context. The Vitis kernel top has its own,
# vitis/kernel_ooc.xdc on ap_clk; platform clocks and pins come from the
# shell, not from XDC.
create_clock -period 3.333 -name clk_i [get_ports clk_i]
