import type { Hex } from 'viem'

/**
 * Creation code run by an `eth_call` with no `to` (nothing is deployed, so it works on any EVM
 * node). The caller appends a 4-byte selector, a 20-byte target and one 32-byte argument per
 * call; the code calls `target.selector(argument)` for each and returns, per call, one word
 * (bit 255 set when the call failed, the low bits the length of its return data) followed by the
 * return data itself.
 *
 * Hand-written instead of viem's deployless Multicall3: on the hardhat devnet its 5.5 KB of code
 * deployed per call and the ABI decoding and re-encoding per sub-call cost the node ~40 % more
 * CPU per `getJob` than these 83 bytes (which is what back-fill speed waits on). Returned bytes
 * become the created contract's code, so they are capped at 24,576 (EIP-170) and never start
 * with 0xEF (EIP-3541; the first word's top byte is 0x00 or 0x80). Compiled without PUSH0
 * (evmVersion paris) for older nodes; test/indexer/readByIds.test.ts checks the code compiles
 * from `readByIdsSource`.
 */
export const readByIdsCode: Hex =
  '0x605360188160003960045160601c601860409201905b388210602457603f1983016040f35b9091602080918185600439600080602481875afa15903d809260ff1b1781528160008483013e0101920190601556'

/** Yul source of `readByIdsCode` (solc `--strict-assembly --optimize --evm-version paris`). */
export const readByIdsSource = `object "ReadByIds" {
  code {
    let start := datasize("ReadByIds")
    codecopy(0, start, 24)
    let target := shr(96, mload(4))
    let cursor := 0x40
    for { let offset := add(start, 24) } lt(offset, codesize()) { offset := add(offset, 32) } {
      codecopy(4, offset, 32)
      let failed := iszero(staticcall(gas(), target, 0, 36, 0, 0))
      let size := returndatasize()
      mstore(cursor, or(shl(255, failed), size))
      returndatacopy(add(cursor, 32), 0, size)
      cursor := add(cursor, add(32, size))
    }
    return(0x40, sub(cursor, 0x40))
  }
}
`
