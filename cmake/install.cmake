# `cmake --install`, the exported CMake package, the pkg-config files and the
# Debian packages (cpack). Included at the end of the top-level
# CMakeLists.txt, once every target exists. What goes where (GNUInstallDirs):
#
#   bin/                      raceaccel (the CLI), raceaccel-cc, raceaccel-c++
#   lib/                      libraceaccel_rt.so (the instrumentation runtime),
#                             libraceaccel_rt_fast.a (the callbacks the wrappers
#                             link into executables), the library's static archives
#   lib/raceaccel/            the Verilator backend's archives (the simulated
#                             kernel and its bus models: implementation only)
#   lib/cmake/raceaccel/      raceaccel-config.cmake: find_package(raceaccel)
#   lib/pkgconfig/            raceaccel.pc, raceaccel-device.pc
#   include/raceaccel/        the public headers, with the paths the code uses
#                             ("core/event.hpp", "driver/device.hpp", ...)
#   share/raceaccel/kernel/   the card image's sources: rtl/ and
#                             constraints/vitis/ (kernel.xml, package_kernel.tcl,
#                             the Makefile behind `make xclbin`)
#   share/doc/raceaccel/      README.md, docs/, examples/
#
# Two components, one Debian package each: `tools` (raceaccel: CLI, wrappers,
# runtime, kernel sources, docs) and `dev` (raceaccel-dev: headers, archives,
# CMake and pkg-config files). docs/api.md describes the library.

set(RACEACCEL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/raceaccel)
set(RACEACCEL_INCLUDE_DIR ${CMAKE_INSTALL_INCLUDEDIR}/raceaccel)
set(RACEACCEL_PRIVATE_LIB_DIR ${CMAKE_INSTALL_LIBDIR}/raceaccel)

# ---- programs and the runtime ---------------------------------------------------
install(TARGETS raceaccel RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
if(TARGET raceaccel_rt)
  install(TARGETS raceaccel_rt LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT tools)
  # The wrappers link the callbacks' archive into executables from beside
  # the runtime (host/runtime/CMakeLists.txt), so it ships with the tools.
  install(TARGETS raceaccel_rt_fast ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT tools)
  install(TARGETS raceaccel_wrappers RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
  # raceaccel-c++ is raceaccel-cc under another name (the wrapper picks the
  # language from its own name), as in the build tree.
  install(CODE "
    file(CREATE_LINK raceaccel-cc \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/raceaccel-c++\" SYMBOLIC)
    message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/raceaccel-c++ -> raceaccel-cc\")"
    COMPONENT tools)
endif()

# ---- the card image's sources ---------------------------------------------------
# The Vitis Makefile finds the RTL at ../../rtl from its own folder, so the
# two folders keep their relative places.
set(RACEACCEL_KERNEL_DIR ${CMAKE_INSTALL_DATADIR}/raceaccel/kernel)
install(DIRECTORY rtl/ DESTINATION ${RACEACCEL_KERNEL_DIR}/rtl COMPONENT tools
  FILES_MATCHING PATTERN "*.sv" PATTERN "*.svh" PATTERN "*.json" PATTERN "README.md"
  PATTERN "lint" EXCLUDE)
install(DIRECTORY constraints/ DESTINATION ${RACEACCEL_KERNEL_DIR}/constraints COMPONENT tools)

# ---- documentation and examples -------------------------------------------------
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tools)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT tools)
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples COMPONENT tools)

# ---- the library: headers -------------------------------------------------------
# Only what a library user includes; none of these includes a header that is
# not installed (tests/install/install_test.sh compiles each one on its own).
install(DIRECTORY host/core host/trace host/detect host/report host/gen host/offload
  DESTINATION ${RACEACCEL_INCLUDE_DIR} COMPONENT dev FILES_MATCHING PATTERN "*.hpp")
install(FILES host/common/exit_codes.hpp host/common/device_status.hpp
  DESTINATION ${RACEACCEL_INCLUDE_DIR}/common COMPONENT dev)
install(FILES driver/device.hpp driver/registry.hpp driver/kernel_shape.hpp driver/records.hpp driver/rac_kernel_regs.hpp
  DESTINATION ${RACEACCEL_INCLUDE_DIR}/driver COMPONENT dev)

# ---- the library: exported targets ----------------------------------------------
# Include directories given as build-tree paths are wrapped in
# $<BUILD_INTERFACE:>: installed consumers get include/raceaccel (INCLUDES
# DESTINATION below) instead. Done here rather than in each CMakeLists.txt so
# that the build tree's own targets stay as they are.
function(raceaccel_build_tree_includes target)
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT dirs)
    return()
  endif()
  set(wrapped)
  foreach(dir IN LISTS dirs)
    if(dir MATCHES "^\\$<")
      list(APPEND wrapped "${dir}")
    else()
      list(APPEND wrapped "$<BUILD_INTERFACE:${dir}>")
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${wrapped}")
  get_target_property(system_dirs ${target} INTERFACE_SYSTEM_INCLUDE_DIRECTORIES)
  if(system_dirs)
    set(wrapped)
    foreach(dir IN LISTS system_dirs)
      list(APPEND wrapped "$<BUILD_INTERFACE:${dir}>")
    endforeach()
    set_property(TARGET ${target} PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${wrapped}")
  endif()
endfunction()

# Names for what a consumer uses. Trace I/O, the detectors, reports and the
# generator are one archive today (raceaccel::core); raceaccel::trace and
# raceaccel::detect name it by use, so that a later split of the archive
# does not change consumers.
add_library(raceaccel_trace_api INTERFACE)
target_link_libraries(raceaccel_trace_api INTERFACE raceaccel_core)
add_library(raceaccel_detect_api INTERFACE)
target_link_libraries(raceaccel_detect_api INTERFACE raceaccel_core)
set_target_properties(raceaccel_core PROPERTIES EXPORT_NAME core)
set_target_properties(raceaccel_trace_api PROPERTIES EXPORT_NAME trace)
set_target_properties(raceaccel_detect_api PROPERTIES EXPORT_NAME detect)
set(public_targets raceaccel_core raceaccel_trace_api raceaccel_detect_api)
if(TARGET raceaccel_offload)
  # raceaccel::device: the Device interface and its backends by name;
  # raceaccel::offload: OffloadChecker, the Detector that checks on a Device.
  set_target_properties(raceaccel_records PROPERTIES EXPORT_NAME records)
  set_target_properties(raceaccel_driver PROPERTIES EXPORT_NAME device)
  set_target_properties(raceaccel_protocol PROPERTIES EXPORT_NAME protocol)
  set_target_properties(raceaccel_offload PROPERTIES EXPORT_NAME offload)
  # Its per-shape build cache (no public header: the device layer's part).
  set_target_properties(raceaccel_shape_cache PROPERTIES EXPORT_NAME shape_cache)
  list(APPEND public_targets raceaccel_records raceaccel_shape_cache raceaccel_driver raceaccel_protocol
       raceaccel_offload)
endif()
foreach(target IN LISTS public_targets)
  raceaccel_build_tree_includes(${target})
endforeach()
install(TARGETS ${public_targets} EXPORT raceaccel-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  INCLUDES DESTINATION ${RACEACCEL_INCLUDE_DIR})

# The Verilator backend is linked into raceaccel::device (privately, but a
# static archive's private dependencies are its consumers' link inputs):
# its archives are installed too, out of the way, with no headers.
set(verilator_targets)
if(RACEACCEL_HAVE_VERILATOR)
  set(verilator_targets raceaccel_driver_verilator rac_kernel_default rac_sim_bus rac_verilator_runtime)
  set_target_properties(raceaccel_driver_verilator PROPERTIES EXPORT_NAME verilator_backend)
  set_target_properties(rac_kernel_default PROPERTIES EXPORT_NAME verilator_kernel_model)
  set_target_properties(rac_sim_bus PROPERTIES EXPORT_NAME verilator_bus_models)
  set_target_properties(rac_verilator_runtime PROPERTIES EXPORT_NAME verilator_runtime)
  foreach(target IN LISTS verilator_targets)
    raceaccel_build_tree_includes(${target})
  endforeach()
  install(TARGETS ${verilator_targets} EXPORT raceaccel-targets
    ARCHIVE DESTINATION ${RACEACCEL_PRIVATE_LIB_DIR} COMPONENT dev)
endif()

install(EXPORT raceaccel-targets NAMESPACE raceaccel:: DESTINATION ${RACEACCEL_CMAKE_DIR} COMPONENT dev)

# ---- raceaccel-config.cmake, its version file ---------------------------------------
include(CMakePackageConfigHelpers)
set(RACEACCEL_CONFIG_HAVE_DEVICE OFF)
if(TARGET raceaccel_offload)
  set(RACEACCEL_CONFIG_HAVE_DEVICE ON)
endif()
configure_package_config_file(cmake/raceaccel-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/raceaccel-config.cmake
  INSTALL_DESTINATION ${RACEACCEL_CMAKE_DIR})
# 0.x: a minor version may change the API, so only the same minor matches.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/raceaccel-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/raceaccel-config.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/raceaccel-config-version.cmake
  DESTINATION ${RACEACCEL_CMAKE_DIR} COMPONENT dev)

# ---- pkg-config -------------------------------------------------------------------
# raceaccel.pc: events, trace I/O, detectors, reports. raceaccel-device.pc:
# the device layer and the offload engine on top of it. The archives are
# static, so their own dependencies are listed for every link (Libs and
# Requires, not .private).
set(RACEACCEL_PC_DEVICE_LIBS "-lraceaccel_offload -lraceaccel_protocol -lraceaccel_driver")
set(RACEACCEL_PC_DEVICE_SYSTEM_LIBS "")
if(RACEACCEL_HAVE_VERILATOR)
  string(APPEND RACEACCEL_PC_DEVICE_LIBS " -L\${libdir}/raceaccel -lraceaccel_driver_verilator -lrac_kernel_default"
    " -lrac_sim_bus -lrac_verilator_runtime")
  # Verilated code uses libatomic; the FST trace writer zlib.
  string(APPEND RACEACCEL_PC_DEVICE_SYSTEM_LIBS " -latomic")
  if(RACEACCEL_TRACE)
    string(APPEND RACEACCEL_PC_DEVICE_SYSTEM_LIBS " -lz")
  endif()
endif()
string(APPEND RACEACCEL_PC_DEVICE_LIBS " -lraceaccel_shape_cache -lraceaccel_records")
if(RACEACCEL_HAVE_XRT)
  string(APPEND RACEACCEL_PC_DEVICE_SYSTEM_LIBS " ${RACEACCEL_XRT_COREUTIL} ${RACEACCEL_UUID}")
endif()
string(APPEND RACEACCEL_PC_DEVICE_SYSTEM_LIBS " -pthread")
file(RELATIVE_PATH RACEACCEL_PC_PREFIX_FROM_PCDIR ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" RACEACCEL_PC_PREFIX_FROM_PCDIR "${RACEACCEL_PC_PREFIX_FROM_PCDIR}")
foreach(pc raceaccel raceaccel-device)
  configure_file(cmake/${pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
endforeach()

# ---- cpack: two Debian packages ------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME raceaccel)
set(CPACK_PACKAGE_VENDOR "raceaccel")
set(CPACK_PACKAGE_CONTACT "raceaccel maintainers <raceaccel@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "precise dynamic data-race detection for C/C++, with an FPGA accelerator")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tools dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME raceaccel)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME raceaccel-dev)
# The runtime libraries the programs link (libfmt9, libzstd1, libdw1, ...)
# come from dpkg-shlibdeps; the wrappers also need the compiler they run.
set(CPACK_DEBIAN_TOOLS_PACKAGE_SHLIBDEPS ON)
if(RACEACCEL_CLANG_C AND RACEACCEL_CLANG_C MATCHES "clang-19")
  set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "clang-19")
else()
  set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "gcc, g++")
endif()
set(CPACK_DEBIAN_TOOLS_DESCRIPTION "raceaccel: the CLI, compiler wrappers, runtime, kernel sources and docs")
# The dev package: the archives' link dependencies as Debian -dev packages.
set(dev_depends "raceaccel (= ${PROJECT_VERSION}), libfmt-dev, nlohmann-json3-dev, libzstd-dev, libxxhash-dev, pkg-config")
if(RACEACCEL_HAVE_XRT)
  string(APPEND dev_depends ", libxrt-dev, uuid-dev")
endif()
if(RACEACCEL_HAVE_VERILATOR AND RACEACCEL_TRACE)
  string(APPEND dev_depends ", zlib1g-dev")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${dev_depends}")
set(CPACK_DEBIAN_DEV_DESCRIPTION "raceaccel-dev: the raceaccel C++ library (events, trace I/O, detectors, device API)")
include(CPack)
