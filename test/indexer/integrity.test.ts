import { startTestDevnet } from '../support/startTestDevnet.ts'
import { defineIntegrityTests } from './support/defineIntegrityTests.ts'

defineIntegrityTests({ startDevnet: () => startTestDevnet({ seed: true }) })
