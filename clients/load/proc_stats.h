#pragma once
// What the kernel says about the server under load (/proc) and about this process's limits.
#include <cstdint>
#include <optional>

namespace plateau::load {

// User plus system CPU time of `pid` so far, in clock ticks (/proc/PID/stat).
std::optional<uint64_t> CpuTicks(int pid);
// The same for `pid` and its children together (every process whose parent it is, found in
// /proc/*/stat): a database server's postmaster and the backends serving its connections. A
// child that ended since its last reading is not counted.
std::optional<uint64_t> TreeCpuTicks(int pid);
// Context switches of all of `pid`'s threads so far, voluntary (a thread waiting: for work, a
// lock, the disk) and not, summed over /proc/PID/task/*/status. Each is a thread put to sleep or
// woken, the fixed cost a hop between threads adds to an action.
std::optional<uint64_t> ContextSwitches(int pid);
// Clock ticks per second (sysconf(_SC_CLK_TCK)).
double TicksPerSecond();

struct Memory {
  uint64_t rss_kb = 0;   // VmRSS: resident now
  uint64_t peak_kb = 0;  // VmHWM: the most it has been resident
};
std::optional<Memory> ReadMemory(int pid);

// Raises the soft limit on open files to the hard limit (every bot is a socket); returns the
// soft limit now in force.
uint64_t RaiseFileLimit();

}  // namespace plateau::load
