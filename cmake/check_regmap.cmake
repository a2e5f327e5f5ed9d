# ctest regmap.generated_files_current: the checked-in register-map outputs
# (RTL packages, C++ header, Vitis kernel.xml) must equal what
# cmake/gen_regmap.cmake makes from the JSON source.
#   cmake -DWORK=<dir> -P cmake/check_regmap.cmake
get_filename_component(root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND ${CMAKE_COMMAND} -DOUT_SV=${WORK}/regs.sv -DOUT_LINE_SV=${WORK}/line.sv -DOUT_HPP=${WORK}/regs.hpp -DOUT_XML=${WORK}/kernel.xml
                        -P ${root}/cmake/gen_regmap.cmake RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_regmap.cmake failed")
endif()
foreach(pair "regs.sv;rtl/rac_kernel_regs_pkg.sv" "line.sv;rtl/rac_line_layout_pkg.sv" "regs.hpp;driver/rac_kernel_regs.hpp"
             "kernel.xml;constraints/vitis/kernel.xml")
  list(GET pair 0 fresh)
  list(GET pair 1 checked_in)
  file(READ "${WORK}/${fresh}" a)
  file(READ "${root}/${checked_in}" b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${checked_in} is stale: run `cmake -P cmake/gen_regmap.cmake` after editing rtl/regmap/rac_kernel_regs.json")
  endif()
endforeach()
message(STATUS "register map outputs are current")
