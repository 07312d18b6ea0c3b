# Installs the weft library with a relocatable CMake package: find_package(Weft) -> Weft::weft.
include(CMakePackageConfigHelpers)

install(TARGETS weft weft_comm weft_linalg EXPORT WeftTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(WEFT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Weft)
install(EXPORT WeftTargets NAMESPACE Weft:: DESTINATION ${WEFT_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/WeftConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/WeftConfig.cmake INSTALL_DESTINATION ${WEFT_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/WeftConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/WeftConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/WeftConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/WeftCompile.cmake
        DESTINATION ${WEFT_CMAKE_DIR})
