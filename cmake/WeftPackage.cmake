# Installs the weft library with a relocatable CMake package: find_package(Weft) -> Weft::weft.
include(CMakePackageConfigHelpers)

install(TARGETS weft weft_comm weft_linalg weft_algorithms EXPORT WeftTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(WEFT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Weft)
install(EXPORT WeftTargets NAMESPACE Weft:: DESTINATION ${WEFT_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/WeftConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/WeftConfig.cmake INSTALL_DESTINATION ${WEFT_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/WeftConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/WeftConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/WeftConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/WeftCompile.cmake
        DESTINATION ${WEFT_CMAKE_DIR})

# pkg-config for builds without CMake (host backends; a CUDA build needs CMake's weft_compile_for_backend).
list(TRANSFORM CMAKE_DL_LIBS PREPEND "-l" OUTPUT_VARIABLE _pc_dl)
string(JOIN " " _pc_dl_s ${_pc_dl})
set(WEFT_PC_LIBS "-lweft_linalg -lweft_comm -lweft ${_pc_dl_s}")
get_target_property(_weft_algorithms_type weft_algorithms TYPE)
if(NOT _weft_algorithms_type STREQUAL "INTERFACE_LIBRARY")  # GPU builds: the vendor sorts are compiled
  string(PREPEND WEFT_PC_LIBS "-lweft_algorithms ")
endif()
set(WEFT_PC_CFLAGS "-std=c++20")
if(WEFT_ENABLE_OPENMP OR WEFT_ENABLE_GPU_EMULATION)
  string(APPEND WEFT_PC_CFLAGS " -fopenmp")
  string(APPEND WEFT_PC_LIBS " -fopenmp")
endif()
set(WEFT_PC_REQUIRES "")
if(WEFT_ENABLE_MPI)
  set(WEFT_PC_REQUIRES "mpi")
endif()
if(WEFT_ENABLE_BLAS AND WEFT_CBLAS_INCLUDE_DIR AND WEFT_CBLAS_LIBRARY)
  get_filename_component(_pc_cblas_dir "${WEFT_CBLAS_LIBRARY}" DIRECTORY)
  string(APPEND WEFT_PC_LIBS " ${WEFT_CBLAS_LIBRARY} -Wl,-rpath,${_pc_cblas_dir}")
endif()
string(REPLACE ";" " " WEFT_PC_BACKENDS "${WEFT_ENABLED_BACKENDS}")
file(RELATIVE_PATH WEFT_PC_TO_PREFIX "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
configure_file(${CMAKE_CURRENT_LIST_DIR}/weft.pc.in ${CMAKE_CURRENT_BINARY_DIR}/weft.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/weft.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
