// Selects the arch layer of this platform (see arch/common.hpp for the interface all three implement).
#pragma once

#include "portshmem/platform.hpp"

#if PORTSHMEM_HAS_DEVICE_API
#if PORTSHMEM_PLATFORM_HOST
#include "portshmem/arch/host.hpp"
#elif PORTSHMEM_PLATFORM_NVIDIA
#include "portshmem/arch/nvidia.hpp"
#else
#include "portshmem/arch/amd.hpp"
#endif
#endif
