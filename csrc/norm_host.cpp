// The norm module's host TU: the checks and launches (norm.cpp) and the TVM-FFI exports (norm_jit_binding.cpp),
// compiled by c++ as one TU. Each alone parses TVM-FFI's C++ headers: 1.6 + 1.7 s of CPU on the 2-core machine,
// 1.9 s as one (nbs/02_jit_core.ipynb, "How long a build takes").
#include "norm.cpp"
#include "norm_jit_binding.cpp"
