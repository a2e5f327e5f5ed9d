# Runs one libFuzzer binary for a bounded time on a fresh copy of its seed
# corpus (libFuzzer adds new inputs to the corpus directory, and the seeds in
# the source tree must stay as they are). libFuzzer exits nonzero on any
# finding: crash, sanitizer report, uncaught exception, leak, timeout or
# out-of-memory; the reproducer is left in WORK/artifacts.
#
#   cmake -DFUZZER=<binary> -DSEEDS=<dir> -DWORK=<dir> [-DSECONDS=20] -P run_fuzzer.cmake

foreach(var FUZZER SEEDS WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_fuzzer.cmake: ${var} is not set")
  endif()
endforeach()
if(NOT DEFINED SECONDS)
  set(SECONDS 20)
endif()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/corpus" "${WORK}/artifacts")
file(GLOB seeds "${SEEDS}/*")
file(COPY ${seeds} DESTINATION "${WORK}/corpus")

execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -rss_limit_mb=2048 -timeout=60 -print_final_stats=1
          "-artifact_prefix=${WORK}/artifacts/" "${WORK}/corpus"
  WORKING_DIRECTORY "${WORK}"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${FUZZER} found a problem (exit status ${result}); reproducer in ${WORK}/artifacts")
endif()
