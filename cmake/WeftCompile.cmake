# CMake 3.25 does not know how nvcc spells C++20; Weft (and its package) teach it.
macro(weft_teach_cuda20)
  if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA" AND NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA_STANDARD_LATEST 20)
  endif()
endmacro()

# weft_compile_for_backend(<target>): compiles the target's C++ sources for the configured device
# backend. With CUDA, its .cpp/.cc/.cxx sources become CUDA sources (nvcc, --extended-lambda,
# --expt-relaxed-constexpr, OpenMP for the host side); with host backends or GpuEmu it changes nothing.
function(weft_compile_for_backend target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "weft_compile_for_backend: ${target} is not a target")
  endif()
  set(_cuda OFF)
  if(WEFT_ENABLE_CUDA OR ("Cuda" IN_LIST Weft_ENABLED_BACKENDS))
    set(_cuda ON)
  endif()
  if(NOT _cuda)
    return()
  endif()
  get_target_property(_sources ${target} SOURCES)
  get_target_property(_dir ${target} SOURCE_DIR)
  set(_cxx "")
  foreach(_s IN LISTS _sources)
    if(_s MATCHES "\\.(cpp|cc|cxx)$" AND NOT _s MATCHES "^\\$<")
      if(NOT IS_ABSOLUTE "${_s}")
        set(_s "${_dir}/${_s}")
      endif()
      list(APPEND _cxx ${_s})
    endif()
  endforeach()
  if(_cxx)
    set_source_files_properties(${_cxx} TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE CUDA)
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp -diag-suppress=20012>)
  if(WEFT_CUDA_RESOURCE_REPORT)
    # ptxas's report for every kernel instantiation: registers, shared memory, stack, spills.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v>)
  endif()
endfunction()

# weft_add_module(TARGET EXPORT SOURCES...): a library layer above core (linalg, comm): Weft::EXPORT, position
# independent, on weft, its include/ folder public in the build tree and where it is installed.
function(weft_add_module target export)
  add_library(${target} ${ARGN})
  add_library(Weft::${export} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export} POSITION_INDEPENDENT_CODE ON)
  target_link_libraries(${target} PUBLIC weft)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endfunction()
