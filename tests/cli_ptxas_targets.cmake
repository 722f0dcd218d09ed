# cmake -DCLI=layoutscope-cli [-DPTXAS=/usr/local/cuda/bin/ptxas] -DWORK=dir -P cli_ptxas_targets.cmake
# Plain targets as ptxas spells them (issue 15 item 3). What CUDA 13.0 ptxas said when this was written:
#   tcgen05.fence::before_thread_sync on sm_100: "Instruction 'tcgen05.fence' not supported on .target
#     'sm_100'"; on sm_100a and sm_100f it assembles.
#   cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes on sm_90 and sm_100:
#     it assembles (TMA tile loads need no arch-specific target).
# This script asks ptxas again (skips cleanly when ptxas is not installed: "SKIPPED: ptxas"), then checks
# that `layoutscope-cli validate` gives the same verdict, naming sm_100a/sm_100f for tcgen05 on sm_100.
if(NOT PTXAS)
  find_program(PTXAS ptxas HINTS /usr/local/cuda/bin)
endif()
if(NOT PTXAS OR NOT EXISTS "${PTXAS}")
  message("SKIPPED: ptxas not found")
  return()
endif()
file(MAKE_DIRECTORY "${WORK}")
set(TMA "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [smem], [%rd1, {%r1, %r2}], [mbar];")
set(FENCE "tcgen05.fence::before_thread_sync;")
function(ptxas_accepts target body result)
  file(WRITE "${WORK}/k_${target}.ptx" ".version 9.0\n.target ${target}\n.address_size 64\n"
    ".visible .entry k(.param .u64 tmap)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  .shared .align 8 .b64 mbar;\n  .shared .align 128 .b8 smem[1024];\n  ld.param.u64 %rd1, [tmap];\n"
    "  ${body}\n  ret;\n}\n")
  execute_process(COMMAND ${PTXAS} -arch=${target} "${WORK}/k_${target}.ptx" -o "${WORK}/k_${target}.cubin"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    set(${result} TRUE PARENT_SCOPE)
  else()
    set(${result} FALSE PARENT_SCOPE)
  endif()
  set(ptxas_said "${out}${err}" PARENT_SCOPE)
endfunction()
function(cli_validate target instr expect_rc regex)
  execute_process(COMMAND ${CLI} validate --target ${target} "${instr}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc OR NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "validate --target ${target} '${instr}': status ${rc} (want ${expect_rc}), "
      "output must match '${regex}':\n${out}${err}")
  endif()
endfunction()

ptxas_accepts(sm_100 "${FENCE}" ok)
if(ok OR NOT ptxas_said MATCHES "not supported on .target 'sm_100'")
  message(FATAL_ERROR "ptxas now takes tcgen05 on plain sm_100 (or says something else):\n${ptxas_said}")
endif()
foreach(t sm_100a sm_100f)
  ptxas_accepts(${t} "${FENCE}" ok)
  if(NOT ok)
    message(FATAL_ERROR "ptxas rejects tcgen05.fence on ${t}:\n${ptxas_said}")
  endif()
  cli_validate(${t} "${FENCE}" 0 "^ok \\(${t}")
endforeach()
cli_validate(sm_100 "${FENCE}" 1 "not available on sm_100; .*sm_100 lacks the arch-specific features: write `sm_100a` or `sm_100f`")
foreach(t sm_90 sm_100)
  ptxas_accepts(${t} "${TMA}" ok)
  if(NOT ok)
    message(FATAL_ERROR "ptxas rejects a TMA tile load on ${t}:\n${ptxas_said}")
  endif()
  string(REPLACE "%rd1" "tmap" cli_tma "${TMA}")
  cli_validate(${t} "${cli_tma}" 0 "^ok \\(${t}")
endforeach()
message("ptxas and validate agree: tcgen05 needs sm_100a/sm_100f; TMA tile loads run on sm_90 and sm_100")
