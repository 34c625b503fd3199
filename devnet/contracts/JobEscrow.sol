// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ServiceRegistry} from "./ServiceRegistry.sol";
import {AttestationVerifier} from "./AttestationVerifier.sol";

/// @title JobEscrow
/// @notice Holds a buyer's payment until the seller submits a valid attestation. The enum, struct,
/// events and listed functions match the reference escrow on 0G mainnet (selectors, topics,
/// layout); see shared/spec/chain-interface.md. Functions beyond that list are devnet-only.
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

    struct Dispute {
        address disputer;
        uint256 bond;
    }

    uint256 public constant PROTOCOL_FEE_BPS = 500;
    uint256 public constant MIN_DISPUTE_BOND = 0.001 ether;

    ServiceRegistry public immutable registry;
    AttestationVerifier public immutable verifier;
    address public immutable arbiter;
    address public immutable treasury;

    uint256 public nextJobId = 1;
    mapping(uint256 jobId => Job) private _jobs;
    mapping(uint256 jobId => Dispute) private _disputes;
    mapping(bytes32 chatId => bool) public chatIdUsed;

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
    /// @notice Devnet-only: the arbiter rejected the dispute, the job is Settled again and the
    /// disputer's bond went to the treasury.
    event DisputeRejected(uint256 indexed jobId, address indexed disputer, uint256 forfeitedBond);

    error ZeroValue();
    error AmountTooLarge(uint256 value);
    error ZeroTimeout();
    error UnknownService(uint256 serviceId);
    error ServiceInactive(uint256 serviceId);
    error UnknownJob(uint256 jobId);
    error WrongState(uint256 jobId, JobState state);
    error NotSeller(uint256 jobId, address caller);
    error NotBuyer(uint256 jobId, address caller);
    error NotArbiter(address caller);
    /// @dev Named `Expired`, not `JobExpired`, because `JobExpired` is the reference event.
    error Expired(uint256 jobId, uint64 expiredAt);
    error NotExpired(uint256 jobId, uint64 expiresAt);
    error ChatIdReused(bytes32 chatId);
    error BadSignature(address recovered, uint8 recoverError, address expected);
    error BondTooSmall(uint256 sent, uint256 minimum);
    error SellerMismatch(uint256 jobId, address seller);
    error TransferFailed(address to, uint256 amount);

    modifier onlyArbiter() {
        if (msg.sender != arbiter) revert NotArbiter(msg.sender);
        _;
    }

    constructor(ServiceRegistry registry_, AttestationVerifier verifier_, address arbiter_, address treasury_) {
        registry = registry_;
        verifier = verifier_;
        arbiter = arbiter_;
        treasury = treasury_;
    }

    /// @param timeout a duration in seconds; the job stores the expiry timestamp.
    function createJob(uint256 serviceId, bytes calldata encryptedInput, uint64 timeout)
        external
        payable
        returns (uint256 jobId)
    {
        if (msg.value == 0) revert ZeroValue();
        if (msg.value > type(uint128).max) revert AmountTooLarge(msg.value);
        if (timeout == 0) revert ZeroTimeout();
        if (serviceId == 0 || serviceId >= registry.nextServiceId()) revert UnknownService(serviceId);
        ServiceRegistry.Service memory service = registry.getService(serviceId);
        if (!service.active) revert ServiceInactive(serviceId);

        jobId = nextJobId++;
        uint128 amount = uint128(msg.value);
        uint64 expiry = uint64(block.timestamp) + timeout;
        bytes32 inputCommitment = keccak256(encryptedInput);

        Job storage job = _jobs[jobId];
        job.serviceId = serviceId;
        job.buyer = msg.sender;
        job.seller = service.seller;
        job.amount = amount;
        job.protocolFee = uint128((uint256(amount) * PROTOCOL_FEE_BPS) / 10_000);
        job.createdAt = uint64(block.timestamp);
        job.timeout = expiry;
        job.inputCommitment = inputCommitment;

        emit JobCreated(jobId, serviceId, msg.sender, inputCommitment, amount, expiry);
    }

    /// @notice Verifies the attestation against the service's current signing address and settles
    /// the job in the same transaction: Pending → Settled.
    function submitAttestation(
        uint256 jobId,
        bytes32 outputRootHash,
        bytes32 chatId,
        bytes calldata attestationText,
        bytes calldata attestationSignature
    ) external {
        Job storage job = _existing(jobId);
        if (msg.sender != job.seller) revert NotSeller(jobId, msg.sender);
        if (job.state != JobState.Pending) revert WrongState(jobId, job.state);
        if (block.timestamp >= job.timeout) revert Expired(jobId, job.timeout);
        if (chatIdUsed[chatId]) revert ChatIdReused(chatId);

        address expected = registry.getService(job.serviceId).signingAddress;
        (address recovered, uint8 recoverError) = verifier.tryRecover(attestationText, attestationSignature);
        if (recoverError != 0 || recovered != expected) revert BadSignature(recovered, recoverError, expected);

        chatIdUsed[chatId] = true;
        job.outputRootHash = outputRootHash;
        job.chatId = chatId;
        job.attestationText = attestationText;
        job.attestationSignature = attestationSignature;
        job.state = JobState.Settled;
        uint128 paidToSeller = job.amount - job.protocolFee;

        emit JobAttested(jobId, outputRootHash, chatId, recovered);
        emit JobSettled(jobId, job.seller, paidToSeller, job.protocolFee);

        _pay(job.seller, paidToSeller);
        _pay(treasury, job.protocolFee);
    }

    function reclaimExpired(uint256 jobId) external {
        Job storage job = _existing(jobId);
        if (msg.sender != job.buyer) revert NotBuyer(jobId, msg.sender);
        if (job.state != JobState.Pending) revert WrongState(jobId, job.state);
        if (block.timestamp < job.timeout) revert NotExpired(jobId, job.timeout);

        job.state = JobState.Expired;
        emit JobExpired(jobId, job.buyer, job.amount);
        _pay(job.buyer, job.amount);
    }

    /// @notice Anyone may dispute a settled job by posting a bond of at least MIN_DISPUTE_BOND.
    /// The escrow holds the bond: it goes back to the disputer if the seller is slashed and to the
    /// treasury if the dispute is rejected.
    function dispute(uint256 jobId) external payable {
        Job storage job = _existing(jobId);
        if (job.state != JobState.Settled) revert WrongState(jobId, job.state);
        if (msg.value < MIN_DISPUTE_BOND) revert BondTooSmall(msg.value, MIN_DISPUTE_BOND);

        job.state = JobState.Disputed;
        _disputes[jobId] = Dispute({disputer: msg.sender, bond: msg.value});
        emit JobDisputed(jobId, msg.sender);
    }

    function markSlashed(
        uint256 jobId,
        address slashedSeller,
        uint128 bondAmount,
        uint128 toDisputer,
        uint128 toTreasury,
        uint128 burned
    ) external onlyArbiter {
        Job storage job = _existing(jobId);
        if (job.state != JobState.Disputed) revert WrongState(jobId, job.state);
        if (slashedSeller != job.seller) revert SellerMismatch(jobId, slashedSeller);

        job.state = JobState.Slashed;
        Dispute memory open = _disputes[jobId];
        emit JobSlashed(jobId, slashedSeller, bondAmount, toDisputer, toTreasury, burned);
        _pay(open.disputer, open.bond);
    }

    /// @notice Devnet-only: the arbiter rejects a dispute; the job returns to Settled.
    function resolveDispute(uint256 jobId) external onlyArbiter {
        Job storage job = _existing(jobId);
        if (job.state != JobState.Disputed) revert WrongState(jobId, job.state);

        job.state = JobState.Settled;
        Dispute memory open = _disputes[jobId];
        emit DisputeRejected(jobId, open.disputer, open.bond);
        _pay(treasury, open.bond);
    }

    function getJob(uint256 jobId) external view returns (Job memory) {
        return _existing(jobId);
    }

    /// @notice Devnet-only: who disputed a job and the bond they posted (zero when never disputed).
    function getDispute(uint256 jobId) external view returns (address disputer, uint256 bond) {
        Dispute memory open = _disputes[jobId];
        return (open.disputer, open.bond);
    }

    function _existing(uint256 jobId) private view returns (Job storage job) {
        job = _jobs[jobId];
        if (job.buyer == address(0)) revert UnknownJob(jobId);
    }

    function _pay(address to, uint256 amount) private {
        if (amount == 0) return;
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert TransferFailed(to, amount);
    }
}
