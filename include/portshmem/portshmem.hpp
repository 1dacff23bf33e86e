// portshmem for C++: the host API (portshmem.h) and, where kernels can be compiled, the device API.
#pragma once

#include "portshmem/portshmem.h"
#include "portshmem/device.hpp"
