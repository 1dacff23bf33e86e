# The on-stream calls (portshmem/stream.h): host entry points and argument checks compiled like the rest of the
# library, and the library's own kernels (src/stream/*kernels*), its only sources built by the platform's device
# compiler: nvcc for CMAKE_CUDA_ARCHITECTURES, clang in HIP mode for PORTSHMEM_AMD_ARCHS, the host compiler on the
# host platform (portshmem_device_sources, cmake/platform.cmake). Each kernel is launched from its own translation
# unit, so no relocatable device code is needed, by the library or by its users.
set(_stream_kernels ${PROJECT_SOURCE_DIR}/src/stream/kernels.cpp
                    ${PROJECT_SOURCE_DIR}/src/stream/collective_kernels.cpp)
# The reductions' kernels, one unit per reduction and element size (src/stream/reduction_unit.cpp.in): each kernel
# takes every type and operator of its size at run time (src/stream/reduction_kernels.hpp), so there are 8 of them,
# spread over units for a parallel build.
foreach(_reduction reduce reduce_scatter)
  foreach(_bytes 1 2 4 8)
    set(PORTSHMEM_REDUCTION ${_reduction})
    set(PORTSHMEM_ELEMENT_BYTES ${_bytes})
    set(_unit ${PROJECT_BINARY_DIR}/stream/${_reduction}_${_bytes}byte.cpp)
    configure_file(${PROJECT_SOURCE_DIR}/src/stream/reduction_unit.cpp.in ${_unit} @ONLY)
    list(APPEND _stream_kernels ${_unit})
  endforeach()
endforeach()
target_sources(portshmem PRIVATE src/stream/arg_checks.cpp src/stream/collectives_on_stream.cpp
                                 src/stream/datatypes.cpp src/stream/on_stream.cpp ${_stream_kernels})
portshmem_device_sources(${_stream_kernels})

# The kernels' units instantiate the device API's inline functions. Hidden, they are neither exported nor bound to an
# application's copies of them (which may be compiled with other PORTSHMEM_DEBUG_CHECKS, or for another platform).
if(PORTSHMEM_IS_NVIDIA)
  set_property(SOURCE ${_stream_kernels} APPEND PROPERTY COMPILE_OPTIONS -Xcompiler=-fvisibility=hidden
                                                                         -Xcompiler=-Wall,-Wextra)
  # The CUDA runtime the rest of the library links (CUDA::cudart), not a static copy of its own in libportshmem.
  set_target_properties(portshmem PROPERTIES CUDA_RUNTIME_LIBRARY Shared)
else()
  set_property(SOURCE ${_stream_kernels} APPEND PROPERTY COMPILE_OPTIONS -fvisibility=hidden)
endif()
if(PORTSHMEM_IS_HOST AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # The device code's `#pragma unroll` is for GPU compilers (and clang); g++ -Wall would warn on each.
  set_property(SOURCE ${_stream_kernels} APPEND PROPERTY COMPILE_OPTIONS -Wno-unknown-pragmas)
endif()
