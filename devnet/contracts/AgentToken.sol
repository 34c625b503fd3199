// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title AgentToken
/// @notice The smallest ERC-721 the devnet needs: one token per registered service, minted to the
/// seller by the registry. Transfers are out of scope, so only minting emits `Transfer`.
contract AgentToken {
    string public constant name = "TEE Market Agent";
    string public constant symbol = "AGENT";

    /// @notice The only address allowed to mint: the registry that deployed this token.
    address public immutable minter;

    uint256 private _lastTokenId;
    mapping(uint256 tokenId => address) private _owners;
    mapping(address owner => uint256) private _balances;
    mapping(uint256 tokenId => string) private _tokenURIs;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    error NotMinter(address caller);
    error ZeroOwner();
    error UnknownToken(uint256 tokenId);

    constructor(address minter_) {
        minter = minter_;
    }

    /// @notice Mints the next token id (ids start at 1) to `to` with `uri` as its token URI.
    function mint(address to, string calldata uri) external returns (uint256 tokenId) {
        if (msg.sender != minter) revert NotMinter(msg.sender);
        if (to == address(0)) revert ZeroOwner();
        tokenId = ++_lastTokenId;
        _owners[tokenId] = to;
        _balances[to] += 1;
        _tokenURIs[tokenId] = uri;
        emit Transfer(address(0), to, tokenId);
    }

    function ownerOf(uint256 tokenId) external view returns (address owner) {
        owner = _owners[tokenId];
        if (owner == address(0)) revert UnknownToken(tokenId);
    }

    function balanceOf(address owner) external view returns (uint256) {
        if (owner == address(0)) revert ZeroOwner();
        return _balances[owner];
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        if (_owners[tokenId] == address(0)) revert UnknownToken(tokenId);
        return _tokenURIs[tokenId];
    }

    function totalSupply() external view returns (uint256) {
        return _lastTokenId;
    }
}
