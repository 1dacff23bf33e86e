# Install rules: library, headers (with the generated config.h), CMake package portshmem::portshmem, pkg-config
# file, and the launcher script.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS portshmem-info RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS portshmem EXPORT portshmem-targets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/portshmem DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h*"
        PATTERN "config.h.in" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/include/portshmem/config.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/portshmem)
install(PROGRAMS scripts/portshmem-run DESTINATION ${CMAKE_INSTALL_BINDIR})

set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/portshmem)
install(EXPORT portshmem-targets NAMESPACE portshmem:: DESTINATION ${_cmake_dir})
configure_package_config_file(cmake/portshmemConfig.cmake.in ${PROJECT_BINARY_DIR}/portshmemConfig.cmake
                              INSTALL_DESTINATION ${_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/portshmemConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/portshmemConfig.cmake ${PROJECT_BINARY_DIR}/portshmemConfigVersion.cmake
        DESTINATION ${_cmake_dir})

# pkg-config: the MPI flags CMake found are written in, so `pkg-config --cflags --libs portshmem` is complete.
string(JOIN " " _mpi_cflags ${MPI_CXX_COMPILE_OPTIONS})
foreach(_dir IN LISTS MPI_CXX_INCLUDE_DIRS)
  string(APPEND _mpi_cflags " -I${_dir}")
endforeach()
string(JOIN " " _mpi_libs ${MPI_CXX_LIBRARIES})
set(PORTSHMEM_PC_CFLAGS "${_mpi_cflags}")
set(PORTSHMEM_PC_LIBS "${_mpi_libs}")
if(PORTSHMEM_PLATFORM STREQUAL "host")
  string(APPEND PORTSHMEM_PC_CFLAGS " -std=c++20")
endif()
# Relocatable: the prefix is found from the .pc file's own place, so `cmake --install --prefix` anywhere works.
file(RELATIVE_PATH PORTSHMEM_PC_RELPREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" PORTSHMEM_PC_RELPREFIX "${PORTSHMEM_PC_RELPREFIX}")
configure_file(cmake/portshmem.pc.in ${PROJECT_BINARY_DIR}/portshmem.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/portshmem.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
