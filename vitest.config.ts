import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/buildExplorerAssets.ts', 'test/support/globalSetup.ts'],
    // Deadlines for a test that hangs, not speed targets (those are benches): many tests wait on
    // a hardhat node that the other files share, so a slow host must not reach them.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // expect.poll waits for a condition: 1 s by default, less than a slow host can need.
    expect: { poll: { timeout: 60_000 } },
    pool: 'forks',
  },
})
