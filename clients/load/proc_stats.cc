#include "clients/load/proc_stats.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace plateau::load {
namespace {

std::optional<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The number on the line "key:  123456 kB" (or "key:  42") of /proc/PID/status.
std::optional<uint64_t> StatusKb(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() > key.size() && line.compare(0, key.size(), key) == 0 &&
        line[key.size()] == ':') {
      return std::strtoull(line.c_str() + key.size() + 1, nullptr, 10);
    }
  }
  return std::nullopt;
}

// The fields of /proc/PID/stat from the third on. Field 2, the command name, is in parentheses
// and may hold spaces: fields are counted from the last ')'.
std::optional<std::vector<std::string>> StatFields(const std::string& pid) {
  const auto text = ReadFile("/proc/" + pid + "/stat");
  if (!text) return std::nullopt;
  const size_t close = text->rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream in(text->substr(close + 1));
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  if (fields.size() < 13) return std::nullopt;
  return fields;
}

// utime and stime, fields 14 and 15.
uint64_t Ticks(const std::vector<std::string>& fields) {
  return std::strtoull(fields[11].c_str(), nullptr, 10) +
         std::strtoull(fields[12].c_str(), nullptr, 10);
}

}  // namespace

std::optional<uint64_t> CpuTicks(int pid) {
  const auto fields = StatFields(std::to_string(pid));
  if (!fields) return std::nullopt;
  return Ticks(*fields);
}

std::optional<uint64_t> TreeCpuTicks(int pid) {
  std::optional<uint64_t> total = CpuTicks(pid);
  if (!total) return std::nullopt;
  DIR* dir = opendir("/proc");
  if (dir == nullptr) return std::nullopt;
  const std::string parent = std::to_string(pid);
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
    const auto fields = StatFields(entry->d_name);
    // Field 4, the parent's pid.
    if (fields && (*fields)[1] == parent) *total += Ticks(*fields);
  }
  closedir(dir);
  return total;
}

std::optional<uint64_t> ContextSwitches(int pid) {
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  DIR* dir = opendir(tasks.c_str());
  if (dir == nullptr) return std::nullopt;
  uint64_t total = 0;
  bool any = false;
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    // A thread that ended since the listing is simply not counted.
    const auto text = ReadFile(tasks + "/" + entry->d_name + "/status");
    if (!text) continue;
    const auto voluntary = StatusKb(*text, "voluntary_ctxt_switches");
    const auto involuntary = StatusKb(*text, "nonvoluntary_ctxt_switches");
    if (!voluntary || !involuntary) continue;
    total += *voluntary + *involuntary;
    any = true;
  }
  closedir(dir);
  if (!any) return std::nullopt;
  return total;
}

double TicksPerSecond() {
  const long ticks = sysconf(_SC_CLK_TCK);
  return ticks > 0 ? static_cast<double>(ticks) : 100.0;
}

std::optional<Memory> ReadMemory(int pid) {
  const auto text = ReadFile("/proc/" + std::to_string(pid) + "/status");
  if (!text) return std::nullopt;
  const auto rss = StatusKb(*text, "VmRSS");
  const auto peak = StatusKb(*text, "VmHWM");
  if (!rss || !peak) return std::nullopt;
  return Memory{*rss, *peak};
}

uint64_t RaiseFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  return limit.rlim_cur == RLIM_INFINITY ? UINT64_MAX : static_cast<uint64_t>(limit.rlim_cur);
}

}  // namespace plateau::load
