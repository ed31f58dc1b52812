// Launcher for scale: checks the tensors, then hands raw pointers to include/flashinfer_nb/scale.cuh.
#include <flashinfer_nb/scale.cuh>

#include "tvm_ffi_utils.h"

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
