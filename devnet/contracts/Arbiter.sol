// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AttestationVerifier} from "./AttestationVerifier.sol";
import {JobEscrow} from "./JobEscrow.sol";
import {ServiceRegistry} from "./ServiceRegistry.sol";

/// @title Arbiter
/// @notice The reference's slashing arbiter: it holds a bond per service and settles disputes
/// mechanically. Anyone may `arbitrate` an open dispute once: the job's stored attestation is
/// checked against the service's *current* signing address. Valid → the dispute failed (90 % of
/// the disputer's bond to the seller, 10 % to the treasury) and the job stays Disputed for good.
/// Invalid → the service's whole bond is slashed (70 % to the disputer, who also gets their bond
/// back, 20 % to the treasury, the rest burned). After a key rotation every job signed with an
/// earlier key is therefore slashable by anyone. See shared/spec/chain-interface.md.
contract Arbiter {
    struct DisputeRecord {
        address disputer;
        uint128 bond;
        uint64 openedAt;
        bool resolved;
    }

    uint128 public constant MIN_BOND = 5 ether;
    uint64 public constant WITHDRAWAL_DELAY = 7 days;
    uint16 private constant SLASH_TO_DISPUTER_BPS = 7_000;
    uint16 private constant SLASH_TO_TREASURY_BPS = 2_000;
    uint16 private constant FAILED_DISPUTE_TO_TREASURY_BPS = 1_000;
    uint16 private constant BPS_DENOMINATOR = 10_000;

    ServiceRegistry public immutable registry;
    JobEscrow public immutable escrow;
    AttestationVerifier public immutable verifier;
    address public immutable treasury;

    // The public getters' keys stay unnamed: the reference's ABI has them without names.
    mapping(uint256 serviceId => uint128) private _bonds;
    /// @notice By service id.
    mapping(uint256 => address) public bondPoster;
    /// @notice By service id.
    mapping(uint256 => uint64) public withdrawalUnlockAt;
    /// @notice By service id.
    mapping(uint256 => uint256) public openDisputesByService;
    /// @notice By job id.
    mapping(uint256 => bool) public arbitrated;
    mapping(uint256 jobId => DisputeRecord) private _disputes;

    event BondStaked(uint256 indexed serviceId, address indexed staker, uint128 newTotal);
    event WithdrawalRequested(uint256 indexed serviceId, uint64 unlockAt);
    event BondWithdrawn(uint256 indexed serviceId, address indexed staker, uint128 amount);
    event DisputeOpened(uint256 indexed jobId, address indexed disputer, uint128 bond);
    event DisputeFailed(uint256 indexed jobId, address indexed disputer, uint128 toSeller, uint128 toTreasury);
    event Slashed(
        uint256 indexed jobId,
        address indexed disputer,
        uint128 sellerBondSlashed,
        uint128 toDisputer,
        uint128 toTreasury,
        uint128 burned
    );

    error AlreadyArbitrated();
    error BondTooSmall();
    error DisputeAlreadyOpen();
    error EscrowOnly();
    error NoDisputeFound();
    error NotBondPoster();
    error NotOriginalRegistrant();
    error OpenDisputesPending();
    error UnknownService();
    error WithdrawalAlreadyRequested();
    error WithdrawalDelayNotElapsed();
    error WithdrawalNotRequested();
    error ZeroTreasury();

    /// @param escrow_ the escrow's address, known before it is deployed (it needs this arbiter's).
    constructor(ServiceRegistry registry_, JobEscrow escrow_, AttestationVerifier verifier_, address treasury_) {
        if (treasury_ == address(0)) revert ZeroTreasury();
        registry = registry_;
        escrow = escrow_;
        verifier = verifier_;
        treasury = treasury_;
    }

    /// @notice Adds at least MIN_BOND to the service's bond. Only the service's registrant stakes,
    /// whoever holds its agent token now.
    function stakeBond(uint256 serviceId) external payable {
        if (serviceId == 0 || serviceId >= registry.nextServiceId()) revert UnknownService();
        address registrant = registry.getService(serviceId).seller;
        if (msg.sender != registrant) revert NotOriginalRegistrant();
        if (msg.value < MIN_BOND) revert BondTooSmall();

        bondPoster[serviceId] = registrant;
        uint128 newTotal = _bonds[serviceId] + uint128(msg.value);
        _bonds[serviceId] = newTotal;
        emit BondStaked(serviceId, msg.sender, newTotal);
    }

    /// @notice Starts the WITHDRAWAL_DELAY; the bond stays slashable until it is withdrawn.
    function requestWithdrawal(uint256 serviceId) external {
        if (msg.sender != bondPoster[serviceId]) revert NotBondPoster();
        if (withdrawalUnlockAt[serviceId] != 0) revert WithdrawalAlreadyRequested();

        uint64 unlockAt = uint64(block.timestamp) + WITHDRAWAL_DELAY;
        withdrawalUnlockAt[serviceId] = unlockAt;
        emit WithdrawalRequested(serviceId, unlockAt);
    }

    /// @notice Pays out the whole bond once the delay has passed and no dispute on the service is open.
    function withdrawBond(uint256 serviceId) external {
        if (msg.sender != bondPoster[serviceId]) revert NotBondPoster();
        uint64 unlockAt = withdrawalUnlockAt[serviceId];
        if (unlockAt == 0) revert WithdrawalNotRequested();
        if (block.timestamp < unlockAt) revert WithdrawalDelayNotElapsed();
        if (openDisputesByService[serviceId] != 0) revert OpenDisputesPending();

        uint128 amount = _bonds[serviceId];
        delete _bonds[serviceId];
        delete bondPoster[serviceId];
        delete withdrawalUnlockAt[serviceId];
        emit BondWithdrawn(serviceId, msg.sender, amount);
        _send(msg.sender, amount);
    }

    /// @notice The escrow's `dispute` forwards the disputer's bond here.
    function openDispute(uint256 jobId, address disputer) external payable {
        if (msg.sender != address(escrow)) revert EscrowOnly();
        if (_disputes[jobId].disputer != address(0)) revert DisputeAlreadyOpen();

        uint128 bond = uint128(msg.value);
        _disputes[jobId] = DisputeRecord({disputer: disputer, bond: bond, openedAt: uint64(block.timestamp), resolved: false});
        openDisputesByService[escrow.getJob(jobId).serviceId] += 1;
        emit DisputeOpened(jobId, disputer, bond);
    }

    /// @notice Settles the open dispute on `jobId`; anyone may call it, once.
    function arbitrate(uint256 jobId) external {
        DisputeRecord storage record = _disputes[jobId];
        if (record.disputer == address(0)) revert NoDisputeFound();
        if (arbitrated[jobId]) revert AlreadyArbitrated();

        JobEscrow.Job memory job = escrow.getJob(jobId);
        ServiceRegistry.Service memory service = registry.getService(job.serviceId);
        bool valid = verifier.verify(job.attestationText, job.attestationSignature, service.signingAddress);

        arbitrated[jobId] = true;
        record.resolved = true;
        openDisputesByService[job.serviceId] -= 1;

        if (valid) _failDispute(jobId, record, service.seller);
        else _slash(jobId, record, job.serviceId, service.seller);
    }

    function getBond(uint256 serviceId) external view returns (uint128 amount, uint64 withdrawableAt) {
        return (_bonds[serviceId], withdrawalUnlockAt[serviceId]);
    }

    function getDispute(uint256 jobId)
        external
        view
        returns (address disputer, uint128 disputeBond, uint64 openedAt, bool resolved)
    {
        DisputeRecord storage record = _disputes[jobId];
        return (record.disputer, record.bond, record.openedAt, record.resolved);
    }

    /// @dev The attestation still verifies: the disputer's bond compensates the seller, less the
    /// treasury's share. The escrow is not told, so the job stays Disputed.
    function _failDispute(uint256 jobId, DisputeRecord storage record, address seller) private {
        uint128 toTreasury = uint128((uint256(record.bond) * FAILED_DISPUTE_TO_TREASURY_BPS) / BPS_DENOMINATOR);
        uint128 toSeller = record.bond - toTreasury;
        emit DisputeFailed(jobId, record.disputer, toSeller, toTreasury);
        _send(seller, toSeller);
        _send(treasury, toTreasury);
    }

    /// @dev The attestation no longer verifies: the service's whole bond is split, the burned share
    /// taking the rounding. An emptied bond slashes for zero, and the escrow still records it.
    function _slash(uint256 jobId, DisputeRecord storage record, uint256 serviceId, address seller) private {
        uint128 bond = _bonds[serviceId];
        uint128 toDisputer = uint128((uint256(bond) * SLASH_TO_DISPUTER_BPS) / BPS_DENOMINATOR);
        uint128 toTreasury = uint128((uint256(bond) * SLASH_TO_TREASURY_BPS) / BPS_DENOMINATOR);
        uint128 burned = bond - toDisputer - toTreasury;
        delete _bonds[serviceId];

        escrow.markSlashed(jobId, seller, bond, toDisputer, toTreasury, burned);
        emit Slashed(jobId, record.disputer, bond, toDisputer, toTreasury, burned);
        _send(record.disputer, uint256(record.bond) + toDisputer);
        _send(treasury, toTreasury);
        _send(address(0), burned);
    }

    function _send(address to, uint256 amount) private {
        if (amount == 0) return;
        (bool ok,) = to.call{value: amount}("");
        require(ok, "Arbiter: transfer failed");
    }
}
