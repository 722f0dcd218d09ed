# cmake -DEXE=prog -DARGS="a|b|c" -DRC=N [-DOUT=re] [-DERR=re] [-DNOT_OUT=re] [-DNOT_ERR=re] -P cli_streams.cmake
# Runs EXE with ARGS ('|'-separated) and checks each stream on its own (issue 15 item 3: results on
# stdout, diagnostics on stderr): exit status RC, stdout matches OUT and not NOT_OUT, stderr matches
# ERR and not NOT_ERR. ERR_EMPTY=1 asks for nothing at all on stderr. %SEMI% in ARGS stands for ';'
# (a ';' would split the argument in add_test).
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "%SEMI%" "\\;" args "${args}")
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
set(both "--- stdout:\n${out}--- stderr:\n${err}")
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "exit status ${rc}, expected ${RC}\n${both}")
endif()
if(DEFINED OUT AND NOT out MATCHES "${OUT}")
  message(FATAL_ERROR "stdout does not match '${OUT}'\n${both}")
endif()
if(DEFINED ERR AND NOT err MATCHES "${ERR}")
  message(FATAL_ERROR "stderr does not match '${ERR}'\n${both}")
endif()
if(DEFINED NOT_OUT AND out MATCHES "${NOT_OUT}")
  message(FATAL_ERROR "stdout matches '${NOT_OUT}' but must not\n${both}")
endif()
if(DEFINED NOT_ERR AND err MATCHES "${NOT_ERR}")
  message(FATAL_ERROR "stderr matches '${NOT_ERR}' but must not\n${both}")
endif()
if(ERR_EMPTY AND NOT err STREQUAL "")
  message(FATAL_ERROR "stderr must be empty\n${both}")
endif()
