import { homedir } from 'node:os'
import { join } from 'node:path'

/** `~/.tee-market`: what this package keeps per person across processes (the spend ledger, the API reference page). */
export const userFolder = join(homedir(), '.tee-market')
