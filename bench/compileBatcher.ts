import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import solc from 'solc'
import type { Abi, Hex } from 'viem'
import { BenchSetupError } from '../errors/bench.ts'

export type CompileBatcherReturnType = { abi: Abi; bytecode: Hex }

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
}

const sourcePath = fileURLToPath(new URL('./contracts/BenchBatcher.sol', import.meta.url))

/** Compiles bench/contracts/BenchBatcher.sol with the pinned solc package (a second or two). */
export function compileBatcher(): CompileBatcherReturnType {
  const input = {
    language: 'Solidity',
    sources: { 'BenchBatcher.sol': { content: readFileSync(sourcePath, 'utf8') } },
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  const compiled = output.contracts?.['BenchBatcher.sol']?.['BenchBatcher']
  if (errors.length > 0 || compiled === undefined) {
    throw new BenchSetupError(`BenchBatcher.sol did not compile: ${errors.map((error) => error.formattedMessage).join('\n')}`)
  }
  return { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` }
}
