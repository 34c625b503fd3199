// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Arbiter} from "./Arbiter.sol";
import {AttestationVerifier} from "./AttestationVerifier.sol";
import {ReputationVault} from "./ReputationVault.sol";
import {ServiceRegistry} from "./ServiceRegistry.sol";

/// @title JobEscrow
/// @notice Holds a buyer's payment until the seller submits a valid attestation. Its external
/// interface (functions, events, errors, struct layout) and behaviour are the reference escrow's
/// on 0G mainnet; see shared/spec/chain-interface.md, "The reference deployment in full".
contract JobEscrow {
    enum JobState {
        Pending,
        Sealed,
        Attested,
        Settled,
        Expired,
        Disputed,
        Slashed
    }

    struct Job {
        uint256 serviceId;
        address buyer;
        address seller;
        uint128 amount;
        uint128 protocolFee;
        uint64 createdAt;
        uint64 timeout;
        JobState state;
        bytes32 inputCommitment;
        bytes32 outputRootHash;
        bytes32 chatId;
        bytes attestationText;
        bytes attestationSignature;
    }

    uint16 public constant PROTOCOL_FEE_BPS = 500;
    /// @notice The least a disputer sends with dispute(): 0.001 native token.
    uint128 public constant DISPUTE_BOND = 0.001 ether;
    uint16 private constant BPS_DENOMINATOR = 10_000;

    ServiceRegistry public immutable registry;
    AttestationVerifier public immutable verifier;
    ReputationVault public immutable reputationVault;
    Arbiter public immutable arbiter;
    address public immutable treasury;

    uint256 public nextJobId = 1;
    /// @notice Fees of settled jobs, held until the treasury sweeps them.
    uint128 public protocolFeesPending;
    /// @notice The escrow of every job not yet settled or refunded.
    uint128 public totalLockedEscrow;
    mapping(uint256 jobId => Job) private _jobs;
    mapping(bytes32 chatId => bool) private _usedChatIds;

    event JobCreated(
        uint256 indexed jobId,
        uint256 indexed serviceId,
        address indexed buyer,
        bytes32 inputCommitment,
        uint128 amount,
        uint64 timeout
    );
    event JobAttested(uint256 indexed jobId, bytes32 outputRootHash, bytes32 chatId, address recoveredSigner);
    event JobSettled(uint256 indexed jobId, address indexed seller, uint128 paidToSeller, uint128 protocolFee);
    event JobExpired(uint256 indexed jobId, address indexed buyer, uint128 refunded);
    event JobDisputed(uint256 indexed jobId, address indexed disputer);
    event JobSlashed(
        uint256 indexed jobId,
        address indexed slashedSeller,
        uint128 bondAmount,
        uint128 toDisputer,
        uint128 toTreasury,
        uint128 burned
    );

    error AlreadyExpired();
    error ArbiterOnly();
    error AttestationInvalid();
    error BondTooSmall();
    error ChatIdReused();
    error JobNotFound();
    error NoFeesToSweep();
    error NotBuyer();
    error NotDisputed();
    error NotExpired();
    error NotPending();
    error NotSeller();
    error NotSettled();
    error ServiceInactive();
    error TreasuryOnly();
    error UnknownService();
    error ZeroAmount();
    error ZeroTimeout();

    constructor(
        ServiceRegistry registry_,
        AttestationVerifier verifier_,
        ReputationVault reputationVault_,
        Arbiter arbiter_,
        address treasury_
    ) {
        registry = registry_;
        verifier = verifier_;
        reputationVault = reputationVault_;
        arbiter = arbiter_;
        treasury = treasury_;
    }

    /// @notice Escrows `msg.value`, whatever it is above zero (the buyer is expected to send the
    /// service's price; nothing enforces it).
    /// @param timeout a duration in seconds; the job stores the expiry timestamp.
    function createJob(uint256 serviceId, bytes calldata encryptedInput, uint64 timeout)
        external
        payable
        returns (uint256 jobId)
    {
        // A value beyond uint128 cannot be escrowed either; the reference names it ZeroAmount too.
        if (msg.value == 0 || msg.value > type(uint128).max) revert ZeroAmount();
        if (timeout == 0) revert ZeroTimeout();
        if (serviceId == 0 || serviceId >= registry.nextServiceId()) revert UnknownService();
        ServiceRegistry.Service memory service = registry.getService(serviceId);
        if (!service.active) revert ServiceInactive();

        jobId = nextJobId++;
        uint128 amount = uint128(msg.value);
        uint64 expiry = uint64(block.timestamp) + timeout;
        bytes32 inputCommitment = keccak256(encryptedInput);

        Job storage job = _jobs[jobId];
        job.serviceId = serviceId;
        job.buyer = msg.sender;
        job.seller = service.seller;
        job.amount = amount;
        job.protocolFee = uint128((uint256(amount) * PROTOCOL_FEE_BPS) / BPS_DENOMINATOR);
        job.createdAt = uint64(block.timestamp);
        job.timeout = expiry;
        job.inputCommitment = inputCommitment;
        totalLockedEscrow += amount;

        emit JobCreated(jobId, serviceId, msg.sender, inputCommitment, amount, expiry);
    }

    /// @notice Verifies the attestation against the service's current signing address and settles
    /// in the same transaction (Pending → Settled): the seller is paid, the fee is held for the
    /// treasury, and the reputation vault counts the job.
    function submitAttestation(
        uint256 jobId,
        bytes32 outputRootHash,
        bytes32 chatId,
        bytes calldata attestationText,
        bytes calldata attestationSignature
    ) external {
        Job storage job = _existing(jobId);
        if (job.state != JobState.Pending) revert NotPending();
        if (msg.sender != job.seller) revert NotSeller();
        if (block.timestamp >= job.timeout) revert AlreadyExpired();
        if (_usedChatIds[chatId]) revert ChatIdReused();

        address signingAddress = registry.getService(job.serviceId).signingAddress;
        if (!verifier.verify(attestationText, attestationSignature, signingAddress)) revert AttestationInvalid();

        _usedChatIds[chatId] = true;
        job.outputRootHash = outputRootHash;
        job.chatId = chatId;
        job.attestationText = attestationText;
        job.attestationSignature = attestationSignature;
        job.state = JobState.Settled;
        uint128 amount = job.amount;
        uint128 paidToSeller = amount - job.protocolFee;
        totalLockedEscrow -= amount;
        protocolFeesPending += job.protocolFee;

        emit JobAttested(jobId, outputRootHash, chatId, signingAddress);
        emit JobSettled(jobId, job.seller, paidToSeller, job.protocolFee);

        _send(job.seller, paidToSeller);
        reputationVault.recordSettlement(job.serviceId, job.buyer, amount);
    }

    function reclaimExpired(uint256 jobId) external {
        Job storage job = _existing(jobId);
        if (msg.sender != job.buyer) revert NotBuyer();
        if (job.state != JobState.Pending) revert NotPending();
        if (block.timestamp < job.timeout) revert NotExpired();

        job.state = JobState.Expired;
        totalLockedEscrow -= job.amount;
        emit JobExpired(jobId, job.buyer, job.amount);
        _send(job.buyer, job.amount);
    }

    /// @notice Anyone may dispute a settled job with at least DISPUTE_BOND; the whole value goes to
    /// the arbiter, which holds it until `arbitrate`.
    function dispute(uint256 jobId) external payable {
        if (msg.value < DISPUTE_BOND) revert BondTooSmall();
        Job storage job = _existing(jobId);
        if (job.state != JobState.Settled) revert NotSettled();

        job.state = JobState.Disputed;
        emit JobDisputed(jobId, msg.sender);
        arbiter.openDispute{value: msg.value}(jobId, msg.sender);
    }

    /// @notice The arbiter records a slash; the amounts are what it paid out of the service's bond.
    function markSlashed(
        uint256 jobId,
        address slashedSeller,
        uint128 bondAmount,
        uint128 toDisputer,
        uint128 toTreasury,
        uint128 burned
    ) external {
        if (msg.sender != address(arbiter)) revert ArbiterOnly();
        Job storage job = _existing(jobId);
        if (job.state != JobState.Disputed) revert NotDisputed();

        job.state = JobState.Slashed;
        emit JobSlashed(jobId, slashedSeller, bondAmount, toDisputer, toTreasury, burned);
    }

    function sweepFees() external {
        if (msg.sender != treasury) revert TreasuryOnly();
        uint128 fees = protocolFeesPending;
        if (fees == 0) revert NoFeesToSweep();
        protocolFeesPending = 0;
        _send(treasury, fees);
    }

    function getJob(uint256 jobId) external view returns (Job memory) {
        return _existing(jobId);
    }

    /// @notice What the escrow still holds for `jobId`: its amount while Pending (or Sealed or
    /// Attested), otherwise 0, unknown ids included.
    function jobEscrowBalance(uint256 jobId) external view returns (uint128) {
        Job storage job = _jobs[jobId];
        return job.state <= JobState.Attested ? job.amount : 0;
    }

    function isChatIdUsed(bytes32 chatId) external view returns (bool) {
        return _usedChatIds[chatId];
    }

    function _existing(uint256 jobId) private view returns (Job storage job) {
        job = _jobs[jobId];
        if (job.buyer == address(0)) revert JobNotFound();
    }

    function _send(address to, uint256 amount) private {
        (bool ok,) = to.call{value: amount}("");
        require(ok, "JobEscrow: transfer failed");
    }
}
