// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title BenchBatcher
/// @notice Bench-only: makes many calls to one contract in one transaction, as itself. The bench's
/// buyers and sellers are such batchers, so 10,000 jobs take ~1,500 transactions instead of
/// 21,000, and the market is generated in about half the time.
contract BenchBatcher {
    address public immutable owner;

    error NotOwner(address caller);

    constructor() {
        owner = msg.sender;
    }

    /// @param values wei sent with each call; they add up to msg.value.
    function run(address target, bytes[] calldata calls, uint256[] calldata values) external payable {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory reason) = target.call{value: values[i]}(calls[i]);
            if (!ok) {
                assembly {
                    revert(add(reason, 32), mload(reason))
                }
            }
        }
    }

    /// @notice Seller payouts, refunds and returned dispute bonds arrive here.
    receive() external payable {}
}
