import packageJson from '../package.json' with { type: 'json' }

export type AnswerInfoFlagsParameters = {
  /** What `--help` prints: the command line and its options. */
  usage: string
}

/**
 * Answers `--help` (`-h`) with the usage and `--version` (`-V`) with the package version, on
 * stdout. Returns true when it answered: the entry point then exits without starting anything.
 */
export function answerInfoFlags(argv: readonly string[], { usage }: AnswerInfoFlagsParameters): boolean {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n`)
    return true
  }
  if (argv.includes('--version') || argv.includes('-V')) {
    process.stdout.write(`${packageJson.name} ${packageJson.version}\n`)
    return true
  }
  return false
}
