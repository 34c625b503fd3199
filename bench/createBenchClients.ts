import {
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type HttpTransport,
  type PublicClient,
  type TestClient,
  type WalletClient,
} from 'viem'
import { hardhat } from 'viem/chains'

export type BenchClients = {
  public: PublicClient<HttpTransport, Chain>
  test: TestClient<'hardhat', HttpTransport, Chain>
  /** No account: transactions name their sender and the node signs them. */
  wallet: WalletClient<HttpTransport, Chain>
}

export type CreateBenchClientsParameters = { rpcUrl: string }

/** Largest JSON-RPC batch the generator sends: a chunk of transactions goes as one request. */
const batchSize = 1_000

/**
 * Clients of the bench's own hardhat node sharing one batching transport, so calls issued in the
 * same tick (a chunk of sends, a page of reads) travel as one HTTP request.
 */
export function createBenchClients({ rpcUrl }: CreateBenchClientsParameters): BenchClients {
  const chain = { ...hardhat, rpcUrls: { default: { http: [rpcUrl] } } }
  const transport = http(rpcUrl, { batch: { batchSize }, retryCount: 0, timeout: 120_000 })
  return {
    // No cache: the generator asks for the head right after mining.
    public: createPublicClient({ chain, transport, cacheTime: 0 }),
    test: createTestClient({ chain, transport, mode: 'hardhat' }),
    wallet: createWalletClient({ chain, transport }),
  }
}
