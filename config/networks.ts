import type { Address } from 'viem'
import type { Deployment } from './deployment.ts'

export const networkNames = ['devnet', '0g-mainnet'] as const
export type NetworkName = (typeof networkNames)[number]

export type NetworkPreset = {
  chainId: number
  rpcUrl: string
  /**
   * WebSocket JSON-RPC endpoint whose new heads the indexer follows, or null to poll only.
   * `{ fromRpcUrl: true }`: the node serves WebSocket on the RPC URL's host and port, as
   * `hardhat node` does, so the URL is the RPC URL with ws:// (wss://) for http:// (https://).
   */
  wsRpcUrl: string | { fromRpcUrl: true } | null
  explorerUrl: string | null
  /** The chain's native token, in which prices and amounts (wei) are shown. */
  nativeCurrency: { symbol: string; decimals: number }
  /** Absent for the devnet: its addresses come from the deployment record `npm start` writes. */
  contracts?: Pick<Deployment, 'registry' | 'escrow' | 'arbiter' | 'attestationVerifier'>
  /**
   * Unix seconds at which the contracts were deployed. When no start block is configured, the
   * indexer finds the first block at or after it by binary search on block timestamps.
   */
  deployTimestamp: number | null
  /** 0G's InferenceServing contract (providers' TEE records); null: none known (the devnet's is in its deployment record). */
  inferenceServing: Address | null
  /** Where the index is kept by default (`--data-dir`), relative to the working directory; null: in memory. */
  dataDir: string | null
}

export const networks: Record<NetworkName, NetworkPreset> = {
  devnet: {
    chainId: 31337,
    rpcUrl: 'http://127.0.0.1:8545',
    wsRpcUrl: { fromRpcUrl: true },
    explorerUrl: null,
    // A hardhat node: its native token is ETH.
    nativeCurrency: { symbol: 'ETH', decimals: 18 },
    deployTimestamp: null,
    // Its chain is new at each start: an index kept from the last one would be of another chain.
    dataDir: null,
    inferenceServing: null,
  },
  '0g-mainnet': {
    chainId: 16661,
    rpcUrl: 'https://evmrpc.0g.ai',
    // No WebSocket endpoint of this chain could be checked from here: an operator who has one sets it.
    wsRpcUrl: null,
    explorerUrl: 'https://chainscan.0g.ai',
    nativeCurrency: { symbol: '0G', decimals: 18 },
    contracts: {
      registry: '0x152A5a433A6592df57d7F77B7B01eEE00C481C2d',
      escrow: '0xB2b762Df53294923d3eaD00d8118AD37388dD4aA',
      arbiter: '0x324E5b2183134EB239C7E934438831a15abe7C00',
      attestationVerifier: '0x765C857B6764c90B0093Ea16f6103902665D0aa2',
    },
    deployTimestamp: 1778219793,
    dataDir: '.tee-market/0g-mainnet',
    // 0G Compute's mainnet contract (@0gfoundation/0g-compute-ts-sdk 0.9.0, constants.js).
    inferenceServing: '0x47340d900bdFec2BD393c626E12ea0656F938d84',
  },
}
