import { runVerifyTee } from './runVerifyTee.ts'

// `npm run tee:verify -- <evidence.json> [--at <ISO time>] [--root-ca <file>]`: see runVerifyTee.
process.exitCode = await runVerifyTee({ argv: process.argv.slice(2), stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) })
