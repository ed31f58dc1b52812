// A per-device table of tuned launch configurations (issue 18), host-only: (dtype, variant, hidden size, rows
// rounded up to a power of two) -> hint, the op's own encoding of a launch choice (0: its built-in rule).
// The Python op fills it from the tuning database when its module loads; a launcher looks its shape up when
// the caller passed no hint. Each module defines its own table (in an anonymous namespace, so two modules in
// one process never share one). Written only by set/clear, at load or after tuning; read lock-free: an entry
// is complete before the count that publishes it grows.
#pragma once
#include <dlpack/dlpack.h>

#include <atomic>
#include <cstdint>

namespace flashinfer_nb {

class TunedTable {
 public:
  static constexpr int kDevices = 64, kEntries = 128;

  // 0 float16, 1 bfloat16, 2 float32: the Python side's order
  static int dtype_code(DLDataType t) { return t.code == kDLBfloat ? 1 : t.bits == 16 ? 0 : 2; }
  // ceil(log2(rows)): the rows bucket of flashinfer_nb.tune.shape_bucket
  static int rows_log2(int64_t rows) {
    return rows <= 1 ? 0 : 64 - __builtin_clzll(static_cast<unsigned long long>(rows - 1));
  }

  // The hint for this shape, 0 when the table has none.
  int lookup(int device, int dtype, int variant, int64_t d, int64_t rows) const {
    if (device < 0 || device >= kDevices) return 0;
    const int n = count_[device].load(std::memory_order_acquire);
    if (n == 0) return 0;
    const int lg = rows_log2(rows);
    for (int i = 0; i < n; ++i) {
      const Entry& e = entries_[device][i];
      if (e.d == d && e.rows_log2 == lg && e.dtype == dtype && e.variant == variant) return e.hint;
    }
    return 0;
  }

  // Add (or replace) an entry; returns an error message, or nullptr.
  const char* set(int64_t device, int64_t dtype, int64_t variant, int64_t d, int64_t rows_log2, int64_t hint) {
    if (device < 0 || device >= kDevices) return "device out of range";
    if (dtype < 0 || dtype > 2) return "dtype code must be 0 (float16), 1 (bfloat16) or 2 (float32)";
    if (d <= 0 || rows_log2 < 0 || rows_log2 > 62 || hint <= 0 || hint > 1000000)
      return "a tuned entry needs d > 0, 0 <= rows_log2 <= 62 and 0 < hint <= 1000000";
    const int n = count_[device].load(std::memory_order_relaxed);
    for (int i = 0; i < n; ++i) {
      Entry& e = entries_[device][i];
      if (e.d == d && e.rows_log2 == rows_log2 && e.dtype == dtype && e.variant == variant) {
        e.hint = static_cast<int>(hint);
        return nullptr;
      }
    }
    if (n >= kEntries) return "the table is full (128 tuned entries per device)";
    entries_[device][n] = Entry{d, static_cast<int>(rows_log2), static_cast<int>(dtype), static_cast<int>(variant),
                                static_cast<int>(hint)};
    count_[device].store(n + 1, std::memory_order_release);
    return nullptr;
  }

  const char* clear(int64_t device) {
    if (device < 0 || device >= kDevices) return "device out of range";
    count_[device].store(0, std::memory_order_release);
    return nullptr;
  }

 private:
  struct Entry {
    int64_t d;
    int rows_log2, dtype, variant, hint;
  };
  Entry entries_[kDevices][kEntries];
  std::atomic<int> count_[kDevices] = {};
};

}  // namespace flashinfer_nb
