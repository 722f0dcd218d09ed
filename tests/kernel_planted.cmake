# cmake -DCLI=layoutscope-cli -DSRC=tests/data/cute_tutorials -DOUT=dir -P kernel_planted.cmake
# Issue 22 item 5's planted bug: a copy of the CuTe tutorial 02_mma_tma_sm100 whose A descriptor's layout type
# is SWIZZLE_64B (bits [61,64) = 4: 0x8000404000010000) instead of SWIZZLE_128B (2: 0x4000404000010000) at
# PTX line 12977, the MMA side only (the TMA map stays 128B). Opened through its launch as a kernel scenario,
# `check --run` must give the producer/consumer mismatch diagnostic naming the MMA's PTX line and CUDA line
# and the TMA load's, and the fix.
file(READ "${SRC}/02_mma_tma_sm100.ptx" ptx)
string(REPLACE "or.b64  \t%rd1, %rd1253, 4611756662049538048;" "or.b64  \t%rd1, %rd1253, 9223442680476925952;" planted "${ptx}")
if(planted STREQUAL ptx)
  message(FATAL_ERROR "the descriptor line to plant the bug in was not found")
endif()
file(MAKE_DIRECTORY "${OUT}")
file(WRITE "${OUT}/02_planted.ptx" "${planted}")
file(READ "${SRC}/02_mma_tma_sm100.launch.scn" launch)
string(REPLACE "kernel 02_mma_tma_sm100.ptx" "kernel 02_planted.ptx" launch "${launch}")
file(WRITE "${OUT}/planted.scn" "${launch}")
execute_process(COMMAND ${CLI} check --run "${OUT}/planted.scn" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 120)
set(all "${out}${err}")
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "exit status ${rc}, expected 1\n${all}")
endif()
set(re "error: 02_planted.ptx:13107 \\(mma_sm100_umma.hpp:115\\), thread 0 of CTA 0: tcgen05.mma operand A reads 1792 of 2048 elements that hold other elements than the tile it reads: the TMA load at 02_planted.ptx:13040 \\(copy_sm90_tma.hpp:129\\) wrote tm_A with CU_TENSOR_MAP_SWIZZLE_128B, the descriptor [^ ]+ reads it as SWIZZLE_64B.*Fix: set the descriptor's layout type to 128B")
if(NOT all MATCHES "${re}")
  message(FATAL_ERROR "the planted swizzle bug was not diagnosed as expected:\n${all}")
endif()
# The untouched kernel, the same way: no error.
execute_process(COMMAND ${CLI} check --run "${SRC}/02_mma_tma_sm100.launch.scn" RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2
                ERROR_VARIABLE err2 TIMEOUT 120)
if(NOT rc2 EQUAL 0)
  message(FATAL_ERROR "the unplanted kernel failed (${rc2}):\n${out2}${err2}")
endif()
