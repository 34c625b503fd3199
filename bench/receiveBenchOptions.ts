/**
 * In a bench child: the options its parent sent over IPC right after spawning it (they can be
 * far larger than a command line may be, e.g. the ceiling server's canned bodies).
 */
export function receiveBenchOptions<options>(): Promise<options> {
  return new Promise((resolve) => {
    const listen = (message: { type?: string; options?: unknown }): void => {
      if (message.type !== 'options') return
      process.off('message', listen)
      resolve(message.options as options)
    }
    process.on('message', listen)
  })
}
