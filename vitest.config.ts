import { defineConfig } from 'vitest/config'
import { SlowestFirstSequencer } from './test/support/SlowestFirstSequencer.ts'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/buildExplorerAssets.ts', 'test/support/buildAppBundles.ts', 'test/support/globalSetup.ts'],
    // Deadlines for a test that hangs, not speed targets (those are benches): many tests wait on
    // a hardhat node that the other files share, so a slow host must not reach them. One for
    // every test and hook: a file's own shorter one (killNine's 240 s) was reached by three files
    // at a time on a loaded host with the node held to 35 % of a core.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // expect.poll waits for a condition: 1 s by default, less than a slow host can need.
    expect: { poll: { timeout: 60_000 } },
    pool: 'forks',
    // Four files at a time, even on 2 cores (where the default is 1): most of the slow files wait
    // on timeouts, stalls, child processes and a slow node rather than compute. Files that run
    // side by side take their own ports (port 0 or a free one), temporary folders and loopback
    // addresses, and no test bounds how fast the host is.
    maxWorkers: 4,
    sequence: { sequencer: SlowestFirstSequencer },
  },
})
