// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AgentToken} from "./AgentToken.sol";

/// @title ServiceRegistry
/// @notice Catalogue of TEE inference services. Its external interface (functions, events, errors,
/// struct layout) and behaviour are the reference registry's on 0G mainnet; see
/// shared/spec/chain-interface.md, "The reference deployment in full".
contract ServiceRegistry {
    struct Service {
        uint256 inftTokenId;
        address seller;
        bytes32 capabilityHash;
        string modelId;
        bytes32 modelCommitment;
        address providerAddress;
        address signingAddress;
        string providerIdentity;
        string providerType;
        bool targetSeparated;
        uint128 pricePerCall;
        uint64 maxInputBytes;
        uint64 registeredAt;
        bool active;
    }

    /// @notice Mints one agent token per registered service; created here so only this registry mints.
    AgentToken public immutable agentNFT;

    uint256 public nextServiceId = 1;
    mapping(uint256 serviceId => Service) private _services;

    event ServiceRegistered(
        uint256 indexed serviceId,
        address indexed seller,
        uint256 inftTokenId,
        bytes32 capabilityHash,
        address signingAddress
    );
    event ServiceUpdated(uint256 indexed serviceId, uint128 newPrice, bool active);
    event ServiceDelisted(uint256 indexed serviceId);
    event SigningAddressRotated(uint256 indexed serviceId, address oldKey, address newKey);

    error EmptyModelId();
    error NotSeller();
    /// @dev Declared by the reference registry, which never raises it; kept for an identical ABI.
    error ServiceInactive();
    error UnknownService();
    error ZeroProviderAddress();
    error ZeroSigningAddress();

    constructor() {
        agentNFT = new AgentToken(address(this));
    }

    /// @notice Any price is accepted, zero included: the escrow takes whatever a buyer sends (> 0).
    function registerService(
        bytes32 capabilityHash,
        string calldata modelId,
        address providerAddress,
        address signingAddress,
        string calldata providerIdentity,
        string calldata providerType,
        bool targetSeparated,
        uint128 pricePerCall,
        uint64 maxInputBytes,
        bytes calldata inftMetadataURI
    ) external returns (uint256 serviceId) {
        if (bytes(modelId).length == 0) revert EmptyModelId();
        if (providerAddress == address(0)) revert ZeroProviderAddress();
        if (signingAddress == address(0)) revert ZeroSigningAddress();

        uint256 inftTokenId = agentNFT.mint(msg.sender, string(inftMetadataURI));
        serviceId = nextServiceId++;

        Service storage service = _services[serviceId];
        service.inftTokenId = inftTokenId;
        service.seller = msg.sender;
        service.capabilityHash = capabilityHash;
        service.modelId = modelId;
        service.modelCommitment = keccak256(abi.encodePacked(modelId, providerAddress));
        service.providerAddress = providerAddress;
        service.signingAddress = signingAddress;
        service.providerIdentity = providerIdentity;
        service.providerType = providerType;
        service.targetSeparated = targetSeparated;
        service.pricePerCall = pricePerCall;
        service.maxInputBytes = maxInputBytes;
        service.registeredAt = uint64(block.timestamp);
        service.active = true;

        emit ServiceRegistered(serviceId, msg.sender, inftTokenId, capabilityHash, signingAddress);
    }

    /// @notice The registrant (`Service.seller`) keeps control of the service even after its agent
    /// token changes hands; so do delistService and rotateSigningAddress.
    function updateService(uint256 serviceId, uint128 newPrice, bool active) external {
        Service storage service = _registrantOwned(serviceId);
        service.pricePerCall = newPrice;
        service.active = active;
        emit ServiceUpdated(serviceId, newPrice, active);
    }

    function delistService(uint256 serviceId) external {
        Service storage service = _registrantOwned(serviceId);
        service.active = false;
        emit ServiceDelisted(serviceId);
    }

    function rotateSigningAddress(uint256 serviceId, address newSigningKey) external {
        if (newSigningKey == address(0)) revert ZeroSigningAddress();
        Service storage service = _registrantOwned(serviceId);
        address oldKey = service.signingAddress;
        service.signingAddress = newSigningKey;
        emit SigningAddressRotated(serviceId, oldKey, newSigningKey);
    }

    function getService(uint256 serviceId) external view returns (Service memory) {
        return _existing(serviceId);
    }

    /// @notice The services whose agent token `seller` holds now, in id order: this follows token
    /// transfers, while `Service.seller` stays the registrant.
    function getSellerServices(address seller) external view returns (uint256[] memory serviceIds) {
        uint256 last = nextServiceId - 1;
        uint256 count;
        for (uint256 id = 1; id <= last; id++) {
            if (_holds(seller, id)) count++;
        }
        serviceIds = new uint256[](count);
        uint256 index;
        for (uint256 id = 1; id <= last; id++) {
            if (_holds(seller, id)) serviceIds[index++] = id;
        }
    }

    function _holds(address holder, uint256 serviceId) private view returns (bool) {
        return agentNFT.ownerOf(_services[serviceId].inftTokenId) == holder;
    }

    function _existing(uint256 serviceId) private view returns (Service storage service) {
        service = _services[serviceId];
        if (service.seller == address(0)) revert UnknownService();
    }

    function _registrantOwned(uint256 serviceId) private view returns (Service storage service) {
        service = _existing(serviceId);
        if (service.seller != msg.sender) revert NotSeller();
    }
}
