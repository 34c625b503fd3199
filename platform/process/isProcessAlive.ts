/**
 * Whether a process with this pid is running: the test behind a lock file its holder may have
 * left by dying (a kill -9 leaves it). EPERM means it runs as another user.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
