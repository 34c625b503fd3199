import { startLongHistoryDevnet } from '../support/startLongHistoryDevnet.ts'
import { defineIntegrityTests } from './support/defineIntegrityTests.ts'

// A public full node: the state of its last 128 blocks only, and eth_getLogs over at most 2,000
// blocks, in front of a history that takes four windows.
defineIntegrityTests({
  startDevnet: () => startLongHistoryDevnet({ blocks: 7_500n, bursts: 3 }),
  nodeKind: { stateBlocks: 128n, maxLogRange: 2_000n },
})
