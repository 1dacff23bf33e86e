# PORTSHMEM_SANITIZE: every target of the build compiled and linked with sanitizers (scripts/sanitize.sh builds each
# kind in its own directory). Host platform only: the GPU platforms' device code cannot carry them.
#   address,undefined   ASan + UBSan; a UBSan finding stops the program (-fno-sanitize-recover), so a test fails
#   thread              TSan
# Run time options and suppressions (third-party code only) are in tests/sanitizers/.
set(PORTSHMEM_SANITIZE "" CACHE STRING "Sanitizers for every target (host platform): empty, address,undefined or thread")
if(PORTSHMEM_SANITIZE)
  if(NOT PORTSHMEM_PLATFORM STREQUAL "host")
    message(FATAL_ERROR "PORTSHMEM_SANITIZE=${PORTSHMEM_SANITIZE} needs -DPORTSHMEM_PLATFORM=host (kernels on CPU threads, "
                        "where the sanitizers see them); got ${PORTSHMEM_PLATFORM}")
  endif()
  if(NOT PORTSHMEM_SANITIZE MATCHES "^(address|undefined|thread)(,(address|undefined|thread))*$")
    message(FATAL_ERROR "PORTSHMEM_SANITIZE must be a comma-separated list of address, undefined and thread "
                        "(address,undefined or thread); got '${PORTSHMEM_SANITIZE}'")
  endif()
  if(PORTSHMEM_SANITIZE MATCHES "thread" AND PORTSHMEM_SANITIZE MATCHES "address")
    message(FATAL_ERROR "PORTSHMEM_SANITIZE: thread and address cannot be combined; build them in two directories")
  endif()
  add_compile_options(-fsanitize=${PORTSHMEM_SANITIZE} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${PORTSHMEM_SANITIZE})
  if(PORTSHMEM_SANITIZE MATCHES "undefined")
    add_compile_options(-fno-sanitize-recover=undefined)
  endif()
  message(STATUS "portshmem: sanitizers ${PORTSHMEM_SANITIZE}")
endif()
