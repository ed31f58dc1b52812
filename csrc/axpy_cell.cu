#include <cstdint>
#include <cuda_runtime.h>

// y[i] = a * x[i] + y[i]; one element per thread, int64 indices.
__global__ void axpy_kernel(const float* __restrict__ x, float* __restrict__ y, float a, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" cudaError_t axpy(const float* x, float* y, float a, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const int threads = 256;
  axpy_kernel<<<(n + threads - 1) / threads, threads, 0, stream>>>(x, y, a, n);
  return cudaGetLastError();
}
