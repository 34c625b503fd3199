// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {JobEscrow} from "./JobEscrow.sol";

/// @title Arbiter
/// @notice Holds seller bonds and lets its owner resolve disputes: a slash takes from the seller's
/// bond and pays the disputer, the treasury and the burn address; a rejection returns the job to
/// Settled. Withdrawals wait `withdrawalDelay` so a seller cannot pull a bond out from under an
/// open dispute.
contract Arbiter {
    struct WithdrawalRequest {
        uint256 amount;
        uint64 availableAt;
    }

    /// @dev Ether sent here is gone for good; the zero address is avoided because some tooling
    /// treats transfers to it as mistakes.
    address public constant BURN_ADDRESS = 0x000000000000000000000000000000000000dEaD;

    address public immutable owner;
    address public immutable treasury;
    uint64 public immutable withdrawalDelay;
    JobEscrow public escrow;

    mapping(address seller => uint256) public bondOf;
    mapping(address seller => WithdrawalRequest) public withdrawalRequestOf;

    event EscrowSet(address escrow);
    event Staked(address indexed seller, uint256 amount, uint256 bond);
    event WithdrawalRequested(address indexed seller, uint256 amount, uint64 availableAt);
    event Withdrawn(address indexed seller, uint256 amount, uint256 bond);
    event BondSlashed(uint256 indexed jobId, address indexed seller, uint256 amount, uint256 bond);

    error NotOwner(address caller);
    error EscrowAlreadySet(address escrow);
    error ZeroValue();
    error InsufficientBond(uint256 bond, uint256 requested);
    error NoWithdrawalRequested(address seller);
    error WithdrawalLocked(uint64 availableAt);
    error BondTooSmall(uint256 bond, uint256 required);
    error TransferFailed(address to, uint256 amount);

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    constructor(address treasury_, uint64 withdrawalDelay_) {
        owner = msg.sender;
        treasury = treasury_;
        withdrawalDelay = withdrawalDelay_;
    }

    /// @notice One-time wiring: the escrow is deployed after the arbiter because it needs the
    /// arbiter's address.
    function setEscrow(JobEscrow escrow_) external onlyOwner {
        if (address(escrow) != address(0)) revert EscrowAlreadySet(address(escrow));
        escrow = escrow_;
        emit EscrowSet(address(escrow_));
    }

    function stake() external payable {
        if (msg.value == 0) revert ZeroValue();
        uint256 bond = bondOf[msg.sender] += msg.value;
        emit Staked(msg.sender, msg.value, bond);
    }

    /// @notice Starts (or restarts) the delay before `amount` can be withdrawn. The bond stays
    /// slashable until the withdrawal happens.
    function requestWithdrawal(uint256 amount) external {
        uint256 bond = bondOf[msg.sender];
        if (amount == 0) revert ZeroValue();
        if (amount > bond) revert InsufficientBond(bond, amount);
        uint64 availableAt = uint64(block.timestamp) + withdrawalDelay;
        withdrawalRequestOf[msg.sender] = WithdrawalRequest({amount: amount, availableAt: availableAt});
        emit WithdrawalRequested(msg.sender, amount, availableAt);
    }

    /// @notice Pays out the requested amount, capped at what a slash may have left of the bond.
    function withdraw() external {
        WithdrawalRequest memory request = withdrawalRequestOf[msg.sender];
        if (request.amount == 0) revert NoWithdrawalRequested(msg.sender);
        if (block.timestamp < request.availableAt) revert WithdrawalLocked(request.availableAt);

        uint256 bond = bondOf[msg.sender];
        uint256 amount = request.amount < bond ? request.amount : bond;
        delete withdrawalRequestOf[msg.sender];
        bondOf[msg.sender] = bond - amount;
        emit Withdrawn(msg.sender, amount, bond - amount);
        _pay(msg.sender, amount);
    }

    /// @notice Upholds the dispute on `jobId`: takes toDisputer + toTreasury + burned from the
    /// seller's bond, marks the job Slashed in the escrow and pays out the three shares.
    function slash(uint256 jobId, uint128 toDisputer, uint128 toTreasury, uint128 burned) external onlyOwner {
        address seller = escrow.getJob(jobId).seller;
        (address disputer,) = escrow.getDispute(jobId);
        uint128 bondAmount = toDisputer + toTreasury + burned;
        uint256 bond = bondOf[seller];
        if (bond < bondAmount) revert BondTooSmall(bond, bondAmount);

        bondOf[seller] = bond - bondAmount;
        emit BondSlashed(jobId, seller, bondAmount, bond - bondAmount);
        escrow.markSlashed(jobId, seller, bondAmount, toDisputer, toTreasury, burned);

        _pay(disputer, toDisputer);
        _pay(treasury, toTreasury);
        _pay(BURN_ADDRESS, burned);
    }

    /// @notice Rejects the dispute on `jobId`: the job returns to Settled, the seller keeps its bond.
    function rejectDispute(uint256 jobId) external onlyOwner {
        escrow.resolveDispute(jobId);
    }

    function _pay(address to, uint256 amount) private {
        if (amount == 0) return;
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert TransferFailed(to, amount);
    }
}
