# baseskin-bench --body human with a capture that does not exist: exit code 3 (I/O) and a message naming
# the file, before any measurement and without creating the JSON it was asked for.
set(capture "${CMAKE_CURRENT_BINARY_DIR}/no-such-capture.bvh")
set(json "${CMAKE_CURRENT_BINARY_DIR}/bench-missing-capture.json")
file(REMOVE ${json})
execute_process(COMMAND ${BENCH} --body human --capture ${capture} --sizes 100000000 --json ${json}
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "expected exit code 3, got '${rc}' (${err})")
endif()
string(FIND "${err}" "${capture}: no such capture" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the message does not name the capture: ${err}")
endif()
if(EXISTS ${json})
  message(FATAL_ERROR "${json} was created though nothing was measured")
endif()
