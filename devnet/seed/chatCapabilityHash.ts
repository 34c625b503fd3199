import { type Hex, keccak256, stringToHex } from 'viem'

/** The `capabilityHash` a demo service registers for its chat model: the seed's and the bench's. */
export function chatCapabilityHash(modelId: string): Hex {
  return keccak256(stringToHex(`capability: chat completion, ${modelId}`))
}
