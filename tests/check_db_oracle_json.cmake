# SPDX-License-Identifier: MIT
# Runs tools/oracles/db_oracle.py over the corpus into OUT and fails unless it equals the committed
# tests/data/db_oracle.json byte for byte.
execute_process(COMMAND ${PYTHON} ${SOURCE}/tools/oracles/db_oracle.py --shared ${SHARED} --json ${OUT}
  RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "db_oracle.py failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${SOURCE}/tests/data/db_oracle.json
  RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "tests/data/db_oracle.json is stale: regenerate it with tools/oracles/db_oracle.py")
endif()
