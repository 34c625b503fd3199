// CommonJS because the package is ESM and hardhat 2 loads its config with require().
/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  // No `solidity` entry: contracts are compiled by devnet/contracts/compile.ts with the pinned
  // solc package, so the node never needs to download a compiler.
  networks: {
    hardhat: {
      chainId: 31337,
      allowUnlimitedContractSize: false,
      mining: { auto: true, interval: 0 },
      accounts: {
        mnemonic: 'test test test test test test test test test test test junk',
        count: 30,
        accountsBalance: '1000000000000000000000000', // 1,000,000 ETH each
      },
      loggingEnabled: false,
      // The seeded devnet starts its clock in the past (devnet/startNode.ts), so that its history
      // is over by the time the clock is set to the wall clock.
      initialDate: process.env.DEVNET_INITIAL_DATE || undefined,
    },
  },
  paths: {
    // Keep hardhat's cache out of the repository root.
    cache: '../node_modules/.cache/hardhat',
  },
}
