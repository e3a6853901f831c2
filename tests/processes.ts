// Process helpers the tests share.

/** Whether a process with this id is alive (signal 0; the tests own the processes they look at). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
