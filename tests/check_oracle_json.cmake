# SPDX-License-Identifier: MIT
# Runs tools/oracles/${ORACLE}.py over the corpus into OUT and fails unless it equals the
# committed tests/data/${ORACLE}.json byte for byte (ORACLE: topdown_oracle, db_oracle, comm_oracle).
execute_process(COMMAND ${PYTHON} ${SOURCE}/tools/oracles/${ORACLE}.py --shared ${SHARED} --json ${OUT}
  RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${ORACLE}.py failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${SOURCE}/tests/data/${ORACLE}.json
  RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "tests/data/${ORACLE}.json is stale: regenerate it with tools/oracles/${ORACLE}.py")
endif()
