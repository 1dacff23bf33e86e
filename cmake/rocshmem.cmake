# portshmem_add_hip_executable(<name> SOURCES <file>... [LIBRARIES <target>...]): builds a HIP program (a rocSHMEM
# program including <hip/hip_runtime.h> and <rocshmem/rocshmem.hpp>) for the configured portshmem platform, linked to
# portshmem. The sources stay where they are and unchanged:
#   amd     clang in HIP mode (the flags of cmake/platform.cmake) with HIP's own headers
#   nvidia  nvcc (CUDA language, any extension), with include/rocshmem/hip_shim mapping the hip* names onto CUDA
#   host    the C++ compiler, with include/rocshmem/hip_shim mapping HIP's kernel language onto the CPU launcher. C++
#           has no `kernel<<<grid, block, shared, stream>>>(args)` and no header can add it, so each source is copied
#           at configure time into the build tree with every such launch rewritten to
#           `::portshmem::hip_host::chevron(kernel, grid, block, shared, stream)(args)` (a #line keeps diagnostics
#           pointing at the original); nothing else changes. A launch whose configuration contains '>' or whose kernel
#           is a template-id (`k<T><<<...>>>`) is not recognized: use hipLaunchKernelGGL there.
# In this tree the portshmem target is used; installed, this file sits next to portshmemConfig.cmake: after
# find_package(portshmem), include(${portshmem_DIR}/rocshmem.cmake).

if(TARGET portshmem)
  set(_portshmem_hip_lib portshmem)
  set(PORTSHMEM_HIP_SHIM_DIR ${CMAKE_CURRENT_LIST_DIR}/../include/rocshmem/hip_shim)
else()
  set(_portshmem_hip_lib portshmem::portshmem)
  get_filename_component(_portshmem_prefix ${CMAKE_CURRENT_LIST_DIR}/../../.. ABSOLUTE)
  set(PORTSHMEM_HIP_SHIM_DIR ${_portshmem_prefix}/include/rocshmem/hip_shim)
  if(NOT PORTSHMEM_PLATFORM) # the installed config.h says which platform the library was built for
    file(STRINGS ${_portshmem_prefix}/include/portshmem/config.h _cfg REGEX "define PORTSHMEM_PLATFORM_[A-Z]+ 1")
    string(REGEX MATCH "PORTSHMEM_PLATFORM_([A-Z]+)" _m "${_cfg}")
    string(TOLOWER "${CMAKE_MATCH_1}" PORTSHMEM_PLATFORM)
  endif()
endif()
if(TARGET portshmem) # installing this tree: the function goes next to portshmemConfig.cmake
  include(GNUInstallDirs)
  install(FILES ${CMAKE_CURRENT_LIST_FILE} DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/portshmem)
endif()
get_filename_component(PORTSHMEM_HIP_SHIM_DIR ${PORTSHMEM_HIP_SHIM_DIR} ABSOLUTE)
set(_portshmem_hip_lib ${_portshmem_hip_lib} CACHE INTERNAL "")
set(PORTSHMEM_HIP_SHIM_DIR ${PORTSHMEM_HIP_SHIM_DIR} CACHE INTERNAL "")

# Writes the host platform's copy of src with its <<<...>>> launches rewritten; returns its path in out.
function(_portshmem_hip_host_copy src dir out)
  get_filename_component(_abs ${src} ABSOLUTE)
  get_filename_component(_base ${src} NAME)
  file(READ ${_abs} _text)
  string(REGEX REPLACE "([A-Za-z_][A-Za-z0-9_:]*)[ \t]*<<<([^>]*)>>>[ \t\r\n]*\\("
                       "::portshmem::hip_host::chevron(\\1, \\2)(" _text "${_text}")
  set(_copy ${dir}/${_base}.cpp)
  file(WRITE ${_copy}.new "#line 1 \"${_abs}\"\n${_text}")
  configure_file(${_copy}.new ${_copy} COPYONLY) # touched only when it changes
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_abs}) # an edit of the source rewrites the copy
  set(${out} ${_copy} PARENT_SCOPE)
endfunction()

function(portshmem_add_hip_executable name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "portshmem_add_hip_executable(${name}): no SOURCES")
  endif()
  set(_sources)
  set(_dirs)
  foreach(_src IN LISTS ARG_SOURCES)
    get_filename_component(_abs ${_src} ABSOLUTE)
    get_filename_component(_dir ${_abs} DIRECTORY)
    list(APPEND _dirs ${_dir}) # the source's own directory, for its local includes
    if(PORTSHMEM_PLATFORM STREQUAL "host")
      _portshmem_hip_host_copy(${_abs} ${CMAKE_CURRENT_BINARY_DIR}/${name}.hip_host _copy)
      list(APPEND _sources ${_copy})
    else()
      list(APPEND _sources ${_abs})
    endif()
  endforeach()
  add_executable(${name} ${_sources})
  target_link_libraries(${name} PRIVATE ${_portshmem_hip_lib} ${ARG_LIBRARIES})
  target_include_directories(${name} PRIVATE ${_dirs})
  if(PORTSHMEM_PLATFORM STREQUAL "nvidia")
    set_source_files_properties(${_sources} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTIES LANGUAGE CUDA)
    target_include_directories(${name} BEFORE PRIVATE ${PORTSHMEM_HIP_SHIM_DIR})
  elseif(PORTSHMEM_PLATFORM STREQUAL "amd")
    set_source_files_properties(${_sources} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTIES LANGUAGE CXX
                                COMPILE_OPTIONS "${PORTSHMEM_HIP_FLAGS}")
  else()
    set_source_files_properties(${_sources} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTIES LANGUAGE CXX)
    target_include_directories(${name} BEFORE PRIVATE ${PORTSHMEM_HIP_SHIM_DIR})
  endif()
endfunction()
