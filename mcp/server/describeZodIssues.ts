import type { ZodError } from 'zod'

/**
 * A zod error as the MCP SDK words argument and output problems: one line per issue, its message
 * and where (`at services[0].seller`), so an agent sees which field to fix. Unknown keys are named
 * before the message, which says what is allowed (see strictParameters).
 */
export function describeZodIssues(error: ZodError): string {
  return error.issues
    .map((issue) => {
      const message = issue.code === 'unrecognized_keys' ? `${unknownKeys(issue.keys)} ${issue.message}` : issue.message
      return issue.path.length === 0 ? message : `${message} at ${dotPath(issue.path)}`
    })
    .join('\n')
}

function unknownKeys(keys: readonly string[]): string {
  return `Unknown ${keys.length === 1 ? 'argument' : 'arguments'} ${keys.map((key) => JSON.stringify(key)).join(', ')}.`
}

function dotPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((text, segment, index) => {
    if (index === 0) return String(segment)
    return typeof segment === 'number' ? `${text}[${segment}]` : `${text}.${segment}`
  }, '')
}
