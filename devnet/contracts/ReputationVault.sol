// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ReputationVault
/// @notice The reference's reputation accumulator, updated by the escrow on every settlement. A
/// buyer's weight is the square root of everything they have paid (this job included), so new and
/// small buyers count for little; a service's score adds up `amount * buyerWeight` per job.
contract ReputationVault {
    struct Reputation {
        uint128 totalJobs;
        uint128 totalVolume;
        uint128 weightedScore;
        uint64 firstJobAt;
        uint64 lastJobAt;
    }

    /// @notice The only caller of recordSettlement.
    address public immutable escrow;

    mapping(uint256 serviceId => Reputation) private _reputations;
    mapping(address buyer => uint128) private _buyerTotalVolume;

    event ReputationIncremented(uint256 indexed serviceId, uint128 jobAmount, uint128 buyerWeight, uint128 newWeightedScore);

    error EscrowOnly();
    error ZeroEscrow();

    constructor(address escrow_) {
        if (escrow_ == address(0)) revert ZeroEscrow();
        escrow = escrow_;
    }

    function recordSettlement(uint256 serviceId, address buyer, uint128 amount) external {
        if (msg.sender != escrow) revert EscrowOnly();
        uint128 buyerVolume = _buyerTotalVolume[buyer] + amount;
        _buyerTotalVolume[buyer] = buyerVolume;
        uint128 buyerWeight = uint128(_sqrt(buyerVolume));

        Reputation storage reputation = _reputations[serviceId];
        if (reputation.totalJobs == 0) reputation.firstJobAt = uint64(block.timestamp);
        reputation.lastJobAt = uint64(block.timestamp);
        reputation.totalJobs += 1;
        reputation.totalVolume += amount;
        reputation.weightedScore += uint128(uint256(amount) * buyerWeight);

        emit ReputationIncremented(serviceId, amount, buyerWeight, reputation.weightedScore);
    }

    function getReputation(uint256 serviceId) external view returns (Reputation memory) {
        return _reputations[serviceId];
    }

    function getBuyerWeight(address buyer) external view returns (uint128) {
        return uint128(_sqrt(_buyerTotalVolume[buyer]));
    }

    function getBuyerTotalVolume(address buyer) external view returns (uint128) {
        return _buyerTotalVolume[buyer];
    }

    /// @dev Floor of the square root of a uint128 (Newton's method from above, which only decreases).
    function _sqrt(uint256 value) private pure returns (uint256 root) {
        root = value;
        uint256 next = (value + 1) >> 1;
        while (next < root) {
            root = next;
            next = (value / next + next) >> 1;
        }
    }
}
