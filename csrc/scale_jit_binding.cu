// TVM-FFI exports for the scale module.
#include "tvm_ffi_utils.h"

void scale(TensorView out, TensorView input, double factor);

// scale(out, input, factor): out = input * factor, elementwise, computed in fp32.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(scale, scale);
