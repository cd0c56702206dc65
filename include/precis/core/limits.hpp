#pragma once
// Resource limits of one verification run: a wall-clock deadline, a bound on the
// resident memory and on the ARG size. One Limits value is made when the run starts
// (the CLI makes it before the front end, so that every phase counts) and is consulted
// by every phase that can take long or grow: the CPA loop, refinement, every solver
// call and the front end's inliner.
//
// A phase that finds a limit exceeded and cannot return a status throws
// precis::limit_reached; the algorithm that runs the phase (CEGAR, the CLI) turns it
// into an UNKNOWN verdict whose reason names the limit. Nothing here is global: each
// run owns its Limits.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#if defined(__unix__)
#include <unistd.h>
#endif

namespace precis {

// Depth: a term or an input structure nested deeper than the recursive walkers over it
// can safely go (see ExprManager::max_depth).
enum class LimitKind : std::uint8_t { Time, Memory, Depth };

// Thrown by a phase that ran out of its budget; what() is the reason to report.
class limit_reached : public std::runtime_error {
 public:
  limit_reached(LimitKind kind, const std::string& reason)
      : std::runtime_error(reason), kind_(kind) {}
  [[nodiscard]] LimitKind kind() const noexcept { return kind_; }

 private:
  LimitKind kind_;
};

// The resident set size of this process in bytes (0 where the platform does not say).
// One read of /proc/self/statm: a few microseconds, so callers poll it every few
// thousand steps, not every step.
inline std::size_t resident_bytes() {
#if defined(__linux__)
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;  // NOLINT(google-runtime-int): fscanf's types
  const int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  if (n != 2) return 0;
  return static_cast<std::size_t>(resident) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
#else
  return 0;
#endif
}

// Physical memory of the machine in bytes (0 if unknown).
inline std::size_t physical_memory_bytes() {
#if defined(__unix__) && defined(_SC_PHYS_PAGES)
  const long pages = sysconf(_SC_PHYS_PAGES);  // NOLINT(google-runtime-int)
  const long page = sysconf(_SC_PAGESIZE);     // NOLINT(google-runtime-int)
  if (pages > 0 && page > 0)
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
#endif
  return 0;
}

inline std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

struct Limits {
  using clock = std::chrono::steady_clock;

  double time_limit_s = 0;          // wall clock from `start`; 0: none
  std::size_t max_arg_nodes = 0;    // 0: none
  std::size_t memory_limit_mb = 0;  // resident memory; 0: none
  clock::time_point start = clock::now();

  [[nodiscard]] double elapsed() const {
    return std::chrono::duration<double>(clock::now() - start).count();
  }
  [[nodiscard]] bool timed_out() const { return time_limit_s > 0 && elapsed() > time_limit_s; }
  // Seconds left (infinity without a time limit; never negative).
  [[nodiscard]] double remaining_s() const {
    if (time_limit_s <= 0) return std::numeric_limits<double>::infinity();
    const double r = time_limit_s - elapsed();
    return r > 0 ? r : 0;
  }
  [[nodiscard]] clock::time_point deadline() const {
    if (time_limit_s <= 0) return clock::time_point::max();
    return start +
           std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(time_limit_s));
  }
  [[nodiscard]] bool memory_exceeded() const {
    return memory_limit_mb > 0 && resident_bytes() > memory_limit_mb * std::size_t{1024 * 1024};
  }

  [[nodiscard]] std::string time_reason() const {
    return "time limit of " + format_seconds(time_limit_s) + " s reached";
  }
  [[nodiscard]] std::string memory_reason() const {
    return "memory limit of " + std::to_string(memory_limit_mb) + " MB reached";
  }

  // The reason if the time or memory limit is exceeded now.
  [[nodiscard]] std::optional<std::string> exceeded() const {
    if (timed_out()) return time_reason();
    if (memory_exceeded()) return memory_reason();
    return std::nullopt;
  }
  // Throws limit_reached if the time or memory limit is exceeded.
  void check() const {
    if (timed_out()) throw limit_reached(LimitKind::Time, time_reason());
    if (memory_exceeded()) throw limit_reached(LimitKind::Memory, memory_reason());
  }
  // Cheap variant for loops: only the clock (no /proc read).
  void check_time() const {
    if (timed_out()) throw limit_reached(LimitKind::Time, time_reason());
  }
};

// A deadline for code that only knows "until when" (solvers, front ends): max() means
// none. Throws limit_reached when it has passed, or when the memory budget it carries is
// exceeded.
struct Deadline {
  std::chrono::steady_clock::time_point at = std::chrono::steady_clock::time_point::max();
  std::string reason = "time limit reached";
  // The run's memory budget (resident MB; 0: none), enforced by check() (not passed()):
  // every phase that polls its deadline, and every solver call, ends at the memory limit
  // too. Resident memory is read from /proc at most every kMemoryPoll.
  std::size_t memory_limit_mb = 0;
  std::string memory_reason = "memory limit reached";
  static constexpr std::chrono::milliseconds kMemoryPoll{20};
  mutable std::chrono::steady_clock::time_point next_memory_poll{};

  [[nodiscard]] static Deadline of(const Limits& l) {
    Deadline d{l.deadline(), l.time_reason()};
    d.memory_limit_mb = l.memory_limit_mb;
    d.memory_reason = l.memory_reason();
    return d;
  }
  [[nodiscard]] bool none() const { return at == std::chrono::steady_clock::time_point::max(); }
  [[nodiscard]] bool passed() const { return !none() && std::chrono::steady_clock::now() >= at; }
  // Milliseconds left, capped at `cap_ms` (0 = no cap); 0 if the deadline has passed.
  [[nodiscard]] std::uint64_t remaining_ms(std::uint64_t cap_ms = 0) const {
    if (none()) return cap_ms;
    const auto now = std::chrono::steady_clock::now();
    if (now >= at) return 0;
    const auto ms = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(at - now).count());
    const std::uint64_t left = ms == 0 ? 1 : ms;
    return cap_ms == 0 ? left : (left < cap_ms ? left : cap_ms);
  }
  // Throws limit_reached when the time is up or the memory budget is exceeded.
  void check() const {
    if (passed()) throw limit_reached(LimitKind::Time, reason);
    if (memory_limit_mb == 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_memory_poll) return;
    next_memory_poll = now + kMemoryPoll;
    if (resident_bytes() > memory_limit_mb * std::size_t{1024 * 1024})
      throw limit_reached(LimitKind::Memory, memory_reason);
  }
};

}  // namespace precis
