# rocSHMEM compatibility (include/rocshmem, docs/rocshmem.md): rocSHMEM's five example programs, unchanged, built with
# portshmem_add_hip_executable (cmake/rocshmem.cmake) from ../shared/conformance/rocshmem-examples and run on 2 and 4
# PEs; the table test that calls every generated typed name once (it fills and checks symmetric memory from the host);
# a check that the generated headers are current; where nvcc is installed, an nvcc compile of one example and of the
# hand-written names' test, and the lowering check of the implicit handle (tests/isa/rocshmem_implicit_handle.sh);
# where clang-19 and HIP's headers are, the check of rocshmem_hipmodule_init's symbol names.
# They write and read rocshmem_malloc memory from the host; on NVIDIA the heap is then pinned host memory
# (PORTSHMEM_HEAP_MEMORY=auto, docs/rocshmem.md). On the GPU platforms they are built and registered only with
# PORTSHMEM_ROCSHMEM_EXAMPLES_ON_GPU=ON (for the GPU machine; amd: their __syncthreads needs the ROCm device
# libraries, which Debian's 5.2 lacks for gfx942); a host build checks that one compiles with nvcc
# (compat_rocshmem_nvcc_compile).
option(PORTSHMEM_ROCSHMEM_EXAMPLES_ON_GPU "Build rocSHMEM's examples on the nvidia/amd platforms too" OFF)
set(PORTSHMEM_ROCSHMEM_EXAMPLES "${PROJECT_SOURCE_DIR}/../shared/conformance/rocshmem-examples"
    CACHE PATH "rocSHMEM's example programs (conformance inputs, built from where they are)")

if(NOT EXISTS ${PORTSHMEM_ROCSHMEM_EXAMPLES}/rocshmem_getmem_test.cc)
  message(WARNING "portshmem: rocSHMEM examples not found at ${PORTSHMEM_ROCSHMEM_EXAMPLES}: "
                  "their compatibility tests are not built (set PORTSHMEM_ROCSHMEM_EXAMPLES)")
elseif(PORTSHMEM_PLATFORM STREQUAL "host" OR PORTSHMEM_ROCSHMEM_EXAMPLES_ON_GPU)
  # example: the PEs that print a verdict (broadcast: every PE but the root)
  foreach(_example getmem put_signal allreduce alltoall broadcast)
    portshmem_add_hip_executable(rocshmem_${_example}_test
                                 SOURCES ${PORTSHMEM_ROCSHMEM_EXAMPLES}/rocshmem_${_example}_test.cc)
    foreach(_np 2 4)
      set(_checking ${_np})
      if(_example STREQUAL "broadcast")
        math(EXPR _checking "${_np} - 1")
      endif()
      add_test(NAME compat_rocshmem_${_example}_np${_np}
               COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/compat/run_rocshmem_example.sh ${_np} ${_checking}
                       $<TARGET_FILE:rocshmem_${_example}_test>)
      set_tests_properties(compat_rocshmem_${_example}_np${_np} PROPERTIES TIMEOUT 300
                           ENVIRONMENT "PORTSHMEM_HEAP_SIZE=64M;PORTSHMEM_TIMEOUT=60s")
    endforeach()
  endforeach()
endif()
if(PORTSHMEM_PLATFORM STREQUAL "host" AND EXISTS ${PORTSHMEM_ROCSHMEM_EXAMPLES}/rocshmem_allreduce_test.cc)
  add_test(NAME compat_rocshmem_nvcc_compile
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/compat/nvcc_compile_check.sh ${PROJECT_SOURCE_DIR}
                   ${PORTSHMEM_ROCSHMEM_EXAMPLES}/rocshmem_allreduce_test.cc)
  set_tests_properties(compat_rocshmem_nvcc_compile PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
endif()
if(PORTSHMEM_PLATFORM STREQUAL "host")
  # The hand-written names' test compiles for sm_90 too: its device code names ROCSHMEM_TEAM_WORLD/_SHARED, which nvcc
  # refuses if they are host variables (the host platform's kernels read those).
  add_test(NAME compat_rocshmem_extras_nvcc_compile
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/compat/nvcc_compile_check.sh ${PROJECT_SOURCE_DIR}
                   ${CMAKE_CURRENT_SOURCE_DIR}/compat/test_rocshmem_extras.cpp)
  set_tests_properties(compat_rocshmem_extras_nvcc_compile PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
  # rocshmem_hipmodule_init (amd) looks a module's copies up by name: clang must emit them as module globals so.
  add_test(NAME compat_rocshmem_hipmodule_symbols
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/compat/hipmodule_symbols_check.sh ${PROJECT_SOURCE_DIR})
  set_tests_properties(compat_rocshmem_hipmodule_symbols PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
  add_test(NAME compat_rocshmem_implicit_handle_isa
           COMMAND ${PROJECT_SOURCE_DIR}/tests/isa/rocshmem_implicit_handle.sh ${PROJECT_SOURCE_DIR})
  set_tests_properties(compat_rocshmem_implicit_handle_isa PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()

# Every generated typed name, called once on 2 and 4 PEs, its effect checked (compat/test_rocshmem_names.cpp).
if(PORTSHMEM_PLATFORM STREQUAL "host")
  portshmem_add_hip_executable(portshmem_compat_names SOURCES compat/test_rocshmem_names.cpp)
  # Unoptimized and without debug info: one kernel per name (thousands) made this the slowest unit of CI's host build
  # (486 s at -O2 -g with 1690 names); what it checks is each call's effect, not its speed.
  target_compile_options(portshmem_compat_names PRIVATE -O0 -g0)
  foreach(_np 2 4)
    add_test(NAME compat_rocshmem_names_np${_np}
             COMMAND ${PROJECT_SOURCE_DIR}/scripts/portshmem-run -np ${_np} $<TARGET_FILE:portshmem_compat_names>)
    set_tests_properties(compat_rocshmem_names_np${_np} PROPERTIES TIMEOUT 600
                         ENVIRONMENT "PORTSHMEM_HEAP_SIZE=64M;PORTSHMEM_TIMEOUT=60s")
  endforeach()
endif()

# The newer collective names (the wave forms, the untyped _mem forms, the types newer rocSHMEM headers add, half and
# bfloat16), each called once on 2 and 4 PEs, its effect checked (compat/test_rocshmem_coll.cpp): one kernel per kind
# of collective rather than one per name, unoptimized, for compile time.
if(PORTSHMEM_PLATFORM STREQUAL "host")
  portshmem_add_hip_executable(portshmem_compat_coll SOURCES compat/test_rocshmem_coll.cpp)
  target_compile_options(portshmem_compat_coll PRIVATE -O0 -g0)
  foreach(_np 2 4)
    add_test(NAME compat_rocshmem_coll_np${_np}
             COMMAND ${PROJECT_SOURCE_DIR}/scripts/portshmem-run -np ${_np} $<TARGET_FILE:portshmem_compat_coll>)
    set_tests_properties(compat_rocshmem_coll_np${_np} PROPERTIES TIMEOUT 600
                         ENVIRONMENT "PORTSHMEM_HEAP_SIZE=64M;PORTSHMEM_TIMEOUT=60s")
  endforeach()
  # Their nvidia spelling (CUDA's __half and __nv_bfloat16 through the shim's hip_fp16.h / hip_bf16.h): one name of each
  # group (the whole test program compiles with nvcc too, but takes many minutes and gigabytes).
  add_test(NAME compat_rocshmem_coll_nvcc_compile
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/compat/nvcc_compile_check.sh ${PROJECT_SOURCE_DIR}
                   ${CMAKE_CURRENT_SOURCE_DIR}/compat/coll_compile_probe.cpp)
  set_tests_properties(compat_rocshmem_coll_nvcc_compile PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
endif()

find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME compat_rocshmem_names_generated
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/compat/gen_rocshmem_names.py --check)
endif()

# The hand-written names beyond the table: barriers and syncs in every group form, pe_quiet, threadfence_system,
# contexts, ROCSHMEM_TEAM_SHARED, split_2d, get_config, host team barrier/sync, calloc/align, the info and stats calls
# (compat/test_rocshmem_extras.cpp), on 2, 3 and 4 PEs (3: a short last row in split_2d). Host platform only: its
# checks read hipMalloc memory from host code (on the H200 that faults: device memory is not host-accessible there).
if(PORTSHMEM_PLATFORM STREQUAL "host")
  portshmem_add_hip_executable(portshmem_compat_extras SOURCES compat/test_rocshmem_extras.cpp)
  foreach(_np 2 3 4)
    add_test(NAME compat_rocshmem_extras_np${_np}
             COMMAND ${PROJECT_SOURCE_DIR}/scripts/portshmem-run -np ${_np} $<TARGET_FILE:portshmem_compat_extras>)
    set_tests_properties(compat_rocshmem_extras_np${_np} PROPERTIES TIMEOUT 300
                         ENVIRONMENT "PORTSHMEM_HEAP_SIZE=64M;PORTSHMEM_TIMEOUT=60s")
  endforeach()
  # The same checks after rocSHMEM's unique-ID start (rocshmem_get_uniqueid, MPI_Bcast, rocshmem_init_attr).
  add_test(NAME compat_rocshmem_extras_uid_np3
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/portshmem-run -np 3 $<TARGET_FILE:portshmem_compat_extras> uid)
  set_tests_properties(compat_rocshmem_extras_uid_np3 PROPERTIES TIMEOUT 300
                       ENVIRONMENT "PORTSHMEM_HEAP_SIZE=64M;PORTSHMEM_TIMEOUT=60s")
endif()

# Every name with a host form (host RMA, AMOs, waits, tests; compat/host_cases.inc), called from host code on 2 and 4
# PEs, its effect checked, plus host quiet/fence and floating waits (compat/test_rocshmem_host.cpp). On GPUs with
# PORTSHMEM_ROCSHMEM_EXAMPLES_ON_GPU=ON, as the examples.
if(PORTSHMEM_PLATFORM STREQUAL "host" OR PORTSHMEM_ROCSHMEM_EXAMPLES_ON_GPU)
  portshmem_add_hip_executable(portshmem_compat_host SOURCES compat/test_rocshmem_host.cpp)
  foreach(_np 2 4)
    add_test(NAME compat_rocshmem_host_np${_np}
             COMMAND ${PROJECT_SOURCE_DIR}/scripts/portshmem-run -np ${_np} $<TARGET_FILE:portshmem_compat_host>)
    set_tests_properties(compat_rocshmem_host_np${_np} PROPERTIES TIMEOUT 600
                         ENVIRONMENT "PORTSHMEM_HEAP_SIZE=64M;PORTSHMEM_TIMEOUT=60s")
  endforeach()
endif()
