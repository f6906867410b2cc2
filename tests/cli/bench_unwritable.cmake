# baseskin-bench --FORMAT into a folder that does not exist: exit code 2 and a message naming the path,
# before any measurement (the sizes asked for would take minutes).
set(path "${CMAKE_CURRENT_BINARY_DIR}/no-such-folder/bench.${FORMAT}")
execute_process(COMMAND ${BENCH} --sizes 100000000 --${FORMAT} ${path} RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit code 2, got '${rc}' (${err})")
endif()
string(FIND "${err}" "${path}: cannot write" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the message does not name the path: ${err}")
endif()
