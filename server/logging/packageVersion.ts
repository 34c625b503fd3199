import { readFileSync } from 'node:fs'

/** This package's version, for start lines. */
export const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version
