// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title InferenceServing (devnet mock)
/// @notice The provider records of 0G Compute's InferenceServing and nothing else: no accounts,
/// ledger or settlement. Functions, events and the `ServiceNotExist` error have 0G's signatures
/// (chain/abi/inferenceServing.ts, from 0G's SDK typechain), and records behave as 0G's
/// `ServiceLibrary` (0g-serving-contract `contracts/inference/InferenceService.sol`): a provider
/// is the sender of `addOrUpdateService`, a new record is unacknowledged, and changing anything but
/// the url or the prices drops the owner's acknowledgement. Not upgradeable, no `initialize`: the
/// deployer is the owner.
contract InferenceServing {
    struct ServiceParams {
        string serviceType;
        string url;
        string model;
        string verifiability;
        uint256 inputPrice;
        uint256 outputPrice;
        string additionalInfo;
        address teeSignerAddress;
    }

    struct Service {
        address provider;
        string serviceType;
        string url;
        uint256 inputPrice;
        uint256 outputPrice;
        uint256 updatedAt;
        string model;
        string verifiability;
        string additionalInfo;
        address teeSignerAddress;
        bool teeSignerAcknowledged;
    }

    /// @dev 0G's limit on the JSON configuration in `additionalInfo`.
    uint256 private constant MAX_ADDITIONAL_INFO_LENGTH = 4096;

    address public owner;
    mapping(address => Service) private _services;
    mapping(address => bool) private _exists;

    event ServiceUpdated(
        address indexed service,
        string serviceType,
        string url,
        uint256 inputPrice,
        uint256 outputPrice,
        uint256 updatedAt,
        string model,
        string verifiability
    );
    event ServiceRemoved(address indexed service);
    event ProviderTEESignerAcknowledged(address indexed provider, address indexed teeSignerAddress, bool acknowledged);

    error ServiceNotExist(address provider);
    error AdditionalInfoTooLong();
    /// @dev OpenZeppelin Ownable's error, as 0G's contract (Ownable) reverts with it.
    error OwnableUnauthorizedAccount(address account);

    modifier onlyOwner() {
        if (msg.sender != owner) revert OwnableUnauthorizedAccount(msg.sender);
        _;
    }

    constructor() {
        owner = msg.sender;
    }

    function getService(address provider) public view returns (Service memory service) {
        if (!_exists[provider]) revert ServiceNotExist(provider);
        return _services[provider];
    }

    function serviceExists(address provider) public view returns (bool) {
        return _exists[provider];
    }

    function addOrUpdateService(ServiceParams calldata params) external payable {
        if (bytes(params.additionalInfo).length > MAX_ADDITIONAL_INFO_LENGTH) revert AdditionalInfoTooLong();
        Service storage value = _services[msg.sender];
        bool acknowledged = _exists[msg.sender] && value.teeSignerAcknowledged && !_criticalFieldsChanged(value, params);
        _services[msg.sender] = Service(
            msg.sender,
            params.serviceType,
            params.url,
            params.inputPrice,
            params.outputPrice,
            block.timestamp,
            params.model,
            params.verifiability,
            params.additionalInfo,
            params.teeSignerAddress,
            acknowledged
        );
        _exists[msg.sender] = true;
        emit ServiceUpdated(
            msg.sender,
            params.serviceType,
            params.url,
            params.inputPrice,
            params.outputPrice,
            block.timestamp,
            params.model,
            params.verifiability
        );
    }

    function removeService() external {
        if (!_exists[msg.sender]) revert ServiceNotExist(msg.sender);
        delete _services[msg.sender];
        _exists[msg.sender] = false;
        emit ServiceRemoved(msg.sender);
    }

    function acknowledgeTEESigner(address provider, bool acknowledged) external onlyOwner {
        _setAcknowledged(provider, acknowledged);
    }

    function acknowledgeTEESignerByOwner(address provider) external onlyOwner {
        _setAcknowledged(provider, true);
    }

    function revokeTEESignerAcknowledgement(address provider) external onlyOwner {
        _setAcknowledged(provider, false);
    }

    function _setAcknowledged(address provider, bool acknowledged) private {
        if (!_exists[provider]) revert ServiceNotExist(provider);
        Service storage service = _services[provider];
        service.teeSignerAcknowledged = acknowledged;
        emit ProviderTEESignerAcknowledged(provider, service.teeSignerAddress, acknowledged);
    }

    /// @dev What 0G's owner acknowledged is the signer of this model and setup: a change to any of
    /// them needs a new acknowledgement; the url and the prices do not.
    function _criticalFieldsChanged(Service storage value, ServiceParams calldata params) private view returns (bool) {
        return keccak256(bytes(value.serviceType)) != keccak256(bytes(params.serviceType))
            || keccak256(bytes(value.model)) != keccak256(bytes(params.model))
            || keccak256(bytes(value.verifiability)) != keccak256(bytes(params.verifiability))
            || value.teeSignerAddress != params.teeSignerAddress
            || keccak256(bytes(value.additionalInfo)) != keccak256(bytes(params.additionalInfo));
    }
}
