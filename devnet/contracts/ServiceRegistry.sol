// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AgentToken} from "./AgentToken.sol";

/// @title ServiceRegistry
/// @notice Catalogue of TEE inference services. The struct, events and listed functions match the
/// reference registry on 0G mainnet byte for byte (selectors, topics, layout); see
/// shared/spec/chain-interface.md.
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

    /// @notice Mints one token per registered service; created here so only this registry can mint.
    AgentToken public immutable agentToken;

    uint256 public nextServiceId = 1;
    mapping(uint256 serviceId => Service) private _services;
    mapping(address seller => uint256[]) private _sellerServices;

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

    error UnknownService(uint256 serviceId);
    error NotSeller(uint256 serviceId, address caller);
    /// @dev A free service would make every job's escrow amount zero, which the escrow rejects.
    error ZeroPrice();
    error EmptyModelId();
    error ZeroSigningAddress();

    constructor() {
        agentToken = new AgentToken(address(this));
    }

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
        if (pricePerCall == 0) revert ZeroPrice();
        if (bytes(modelId).length == 0) revert EmptyModelId();
        if (signingAddress == address(0)) revert ZeroSigningAddress();

        serviceId = nextServiceId++;
        uint256 inftTokenId = agentToken.mint(msg.sender, string(inftMetadataURI));

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
        _sellerServices[msg.sender].push(serviceId);

        emit ServiceRegistered(serviceId, msg.sender, inftTokenId, capabilityHash, signingAddress);
    }

    function updateService(uint256 serviceId, uint128 newPrice, bool active) external {
        Service storage service = _sellerOwned(serviceId);
        if (newPrice == 0) revert ZeroPrice();
        service.pricePerCall = newPrice;
        service.active = active;
        emit ServiceUpdated(serviceId, newPrice, active);
    }

    function delistService(uint256 serviceId) external {
        Service storage service = _sellerOwned(serviceId);
        service.active = false;
        emit ServiceDelisted(serviceId);
    }

    function rotateSigningAddress(uint256 serviceId, address newSigningKey) external {
        Service storage service = _sellerOwned(serviceId);
        if (newSigningKey == address(0)) revert ZeroSigningAddress();
        address oldKey = service.signingAddress;
        service.signingAddress = newSigningKey;
        emit SigningAddressRotated(serviceId, oldKey, newSigningKey);
    }

    function getService(uint256 serviceId) external view returns (Service memory) {
        return _existing(serviceId);
    }

    function getSellerServices(address seller) external view returns (uint256[] memory) {
        return _sellerServices[seller];
    }

    function _existing(uint256 serviceId) private view returns (Service storage service) {
        service = _services[serviceId];
        if (service.seller == address(0)) revert UnknownService(serviceId);
    }

    function _sellerOwned(uint256 serviceId) private view returns (Service storage service) {
        service = _existing(serviceId);
        if (service.seller != msg.sender) revert NotSeller(serviceId, msg.sender);
    }
}
