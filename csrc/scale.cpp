// Launcher and TVM-FFI export for scale: check the tensors, then call the launcher compiled in
// csrc/scale_kernels.cu. Host-only C++ (compiled by c++, not nvcc).
#include <flashinfer_nb/scale_launch.h>

#include "tvm_ffi_utils.h"

// scale(out, input, factor): out = input * factor, elementwise, computed in fp32.
void scale(TensorView out, TensorView input, double factor) {
  CHECK_INPUT(input);
  CHECK_INPUT(out);
  CHECK_SAME_DEVICE(input, out);
  CHECK_SAME_DTYPE(input, out);
  CHECK_SAME_SHAPE(input, out);
  tvm::ffi::CUDADeviceGuard guard(input.device().device_id);
  const cudaStream_t stream = flashinfer_nb::get_stream(input.device());
  DISPATCH_FLOAT_DTYPE(input.dtype(), c_type, [&] {
    CHECK_CUDA_SUCCESS(flashinfer_nb::ScaleLauncher<c_type>(
                           flashinfer_nb::data_ptr<const c_type>(input),
                           flashinfer_nb::data_ptr<c_type>(out), static_cast<float>(factor),
                           input.numel(), stream),
                       "scale kernel launch");
    return true;
  });
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(scale, scale);
