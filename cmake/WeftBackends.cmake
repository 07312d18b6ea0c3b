# Validates the backend choice and records it; stops with one message that says what to do.
function(weft_check_backends)
  set(_fail "")
  if(WEFT_ENABLE_CUDA AND WEFT_ENABLE_HIP)
    string(APPEND _fail "WEFT_ENABLE_CUDA and WEFT_ENABLE_HIP are both ON, but a build holds at most one device "
                        "backend: drop one of them (-DWEFT_ENABLE_HIP=OFF or -DWEFT_ENABLE_CUDA=OFF).\n")
  endif()
  if(WEFT_ENABLE_GPU_EMULATION AND (WEFT_ENABLE_CUDA OR WEFT_ENABLE_HIP))
    string(APPEND _fail "WEFT_ENABLE_GPU_EMULATION=ON is a device backend of its own and excludes CUDA and HIP in "
                        "the same build: drop one (-DWEFT_ENABLE_GPU_EMULATION=OFF, or the CUDA/HIP option).\n")
  endif()
  if(WEFT_ENABLE_GPU_EMULATION)
    find_package(Boost 1.66 QUIET COMPONENTS context)
    if(NOT Boost_CONTEXT_FOUND)
      string(APPEND _fail "WEFT_ENABLE_GPU_EMULATION=ON needs Boost.Context for the emulated threads: "
                          "apt-get install libboost-context-dev (or configure with -DWEFT_ENABLE_GPU_EMULATION=OFF).\n")
    endif()
    if(NOT OpenMP_CXX_FOUND)
      string(APPEND _fail "WEFT_ENABLE_GPU_EMULATION=ON runs blocks on OpenMP threads: use a compiler with OpenMP.\n")
    endif()
  endif()
  if(WEFT_ENABLE_HIP)
    # The HIP build compiles every C++ source with hipcc (clang's HIP mode), so the C++ compiler must be it.
    if(NOT CMAKE_CXX_COMPILER MATCHES "hipcc")
      string(APPEND _fail "WEFT_ENABLE_HIP=ON compiles all C++ as HIP, but the C++ compiler is ${CMAKE_CXX_COMPILER}: "
                          "configure in a fresh build directory with -DCMAKE_CXX_COMPILER=hipcc (Debian: apt-get "
                          "install hipcc libamdhip64-dev rocm-device-libs), or use the hip preset.\n")
    endif()
    find_package(hip CONFIG QUIET)
    if(NOT hip_FOUND)
      string(APPEND _fail "WEFT_ENABLE_HIP=ON but the HIP runtime's CMake package was not found: install it "
                          "(Debian: apt-get install libamdhip64-dev) or set CMAKE_PREFIX_PATH to the ROCm prefix.\n")
    endif()
  endif()
  if(WEFT_ENABLE_CUDA)
    include(CheckLanguage)
    check_language(CUDA)
    if(NOT CMAKE_CUDA_COMPILER)
      string(APPEND _fail "WEFT_ENABLE_CUDA=ON but no CUDA compiler was found: install the CUDA toolkit and put nvcc "
                          "on PATH (or set CMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc), or configure with "
                          "-DWEFT_ENABLE_CUDA=OFF.\n")
    endif()
  endif()
  if(WEFT_ENABLE_OPENMP AND NOT OpenMP_CXX_FOUND)
    string(APPEND _fail "WEFT_ENABLE_OPENMP=ON but the compiler ${CMAKE_CXX_COMPILER} has no OpenMP support: "
                        "install it (Debian: apt-get install libomp-dev for clang; g++ has it built in) "
                        "or configure with -DWEFT_ENABLE_OPENMP=OFF.\n")
  endif()
  if(NOT WEFT_ENABLE_SERIAL AND NOT WEFT_ENABLE_OPENMP)
    string(APPEND _fail "No host backend: enable WEFT_ENABLE_SERIAL or WEFT_ENABLE_OPENMP.\n")
  endif()
  if(WEFT_ENABLE_NCCL AND NOT WEFT_ENABLE_CUDA)
    string(APPEND _fail "WEFT_ENABLE_NCCL=ON needs WEFT_ENABLE_CUDA=ON (NCCL moves device memory).\n")
  endif()
  if(WEFT_ENABLE_NCCL AND NOT WEFT_ENABLE_MPI)
    string(APPEND _fail "WEFT_ENABLE_NCCL=ON needs WEFT_ENABLE_MPI=ON (the ncclUniqueId travels over MPI).\n")
  endif()
  if(WEFT_ENABLE_MPI)
    set(MPI_CXX_SKIP_MPICXX ON CACHE BOOL "Weft uses the MPI C API only")
    find_package(MPI QUIET COMPONENTS CXX)
    if(NOT MPI_CXX_FOUND)
      string(APPEND _fail "WEFT_ENABLE_MPI=ON but no MPI was found: install it "
                          "(Debian: apt-get install libopenmpi-dev openmpi-bin) or configure with -DWEFT_ENABLE_MPI=OFF.\n")
    endif()
  endif()
  if(_fail)
    message(FATAL_ERROR "Weft configuration error:\n${_fail}")
  endif()

  # The enabled backends in this order; the last is the default (a GPU backend when one is on).
  set(_backends "")
  foreach(_pair SERIAL=Serial OPENMP=OpenMP GPU_EMULATION=GpuEmu CUDA=Cuda HIP=HIP)
    string(REPLACE "=" ";" _pair "${_pair}")
    list(GET _pair 0 _option)
    list(GET _pair 1 _name)
    if(WEFT_ENABLE_${_option})
      list(APPEND _backends ${_name})
    endif()
  endforeach()
  list(GET _backends -1 _default)
  set(WEFT_ENABLED_BACKENDS "${_backends}" PARENT_SCOPE)
  set(WEFT_DEFAULT_BACKEND "${_default}" PARENT_SCOPE)
  # The hooks a backend asks core for (core/config.hpp.in): GpuEmu's stream-order checker sees host accesses.
  set(WEFT_BACKEND_ACCESS_HOOKS ${WEFT_ENABLE_GPU_EMULATION} PARENT_SCOPE)
  # Device code that runs on host threads (GpuEmu's kernels): View handles there must not count, as on a GPU.
  set(WEFT_BACKEND_HOST_RUN_DEVICE_CODE ${WEFT_ENABLE_GPU_EMULATION} PARENT_SCOPE)
endfunction()
