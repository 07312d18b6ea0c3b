# weft_compile_for_backend(<target>): compiles the target's C++ sources for the configured device
# backend (as CUDA or HIP). With host backends only, as now, there is nothing to change.
function(weft_compile_for_backend target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "weft_compile_for_backend: ${target} is not a target")
  endif()
endfunction()
