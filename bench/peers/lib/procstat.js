// CPU time of a process from /proc/PID/stat: user plus system time of all its threads, in
// seconds. Null when the process is gone.
import fs from "node:fs";
import { execFileSync } from "node:child_process";

let ticksPerSecond = 100;
try {
  ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
} catch {
  // getconf missing: Linux's USER_HZ is 100 everywhere this runs
}

export function cpuSeconds(pid) {
  let text;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
