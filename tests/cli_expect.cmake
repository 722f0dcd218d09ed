# cmake -DEXE=prog -DARGS="a|b|c" -DRC=N -DREGEX=re -P cli_expect.cmake
# Runs EXE with ARGS ('|'-separated); fails unless its exit status is RC and stdout+stderr match REGEX.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "exit status ${rc}, expected ${RC}\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\n${out}${err}")
endif()
