// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title AgentToken
/// @notice The smallest ERC-721 the devnet needs: one agent token per registered service, minted
/// to the seller by the registry (the reference's `agentNFT`). Ids start at 0, as there. Tokens
/// transfer, because the registry's `getSellerServices` follows who holds them.
contract AgentToken {
    string public constant name = "TEE Market Agent";
    string public constant symbol = "AGENT";

    /// @notice The only address allowed to mint: the registry that deployed this token.
    address public immutable minter;

    uint256 public totalSupply;
    mapping(uint256 tokenId => address) private _owners;
    mapping(address owner => uint256) private _balances;
    mapping(uint256 tokenId => string) private _tokenURIs;
    mapping(uint256 tokenId => address) private _approvals;
    mapping(address owner => mapping(address operator => bool)) private _operators;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    error NotMinter(address caller);
    error ZeroOwner();
    error UnknownToken(uint256 tokenId);
    error NotAllowed(address caller, uint256 tokenId);
    error WrongOwner(address from, uint256 tokenId);

    constructor(address minter_) {
        minter = minter_;
    }

    /// @notice Mints the next token id (the first is 0) to `to` with `uri` as its token URI.
    function mint(address to, string calldata uri) external returns (uint256 tokenId) {
        if (msg.sender != minter) revert NotMinter(msg.sender);
        if (to == address(0)) revert ZeroOwner();
        tokenId = totalSupply++;
        _owners[tokenId] = to;
        _balances[to] += 1;
        _tokenURIs[tokenId] = uri;
        emit Transfer(address(0), to, tokenId);
    }

    function transferFrom(address from, address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        if (owner != from) revert WrongOwner(from, tokenId);
        if (to == address(0)) revert ZeroOwner();
        if (msg.sender != owner && msg.sender != _approvals[tokenId] && !_operators[owner][msg.sender]) {
            revert NotAllowed(msg.sender, tokenId);
        }
        delete _approvals[tokenId];
        _balances[from] -= 1;
        _balances[to] += 1;
        _owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function approve(address approved, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        if (msg.sender != owner && !_operators[owner][msg.sender]) revert NotAllowed(msg.sender, tokenId);
        _approvals[tokenId] = approved;
        emit Approval(owner, approved, tokenId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        _operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function ownerOf(uint256 tokenId) public view returns (address owner) {
        owner = _owners[tokenId];
        if (owner == address(0)) revert UnknownToken(tokenId);
    }

    function balanceOf(address owner) external view returns (uint256) {
        if (owner == address(0)) revert ZeroOwner();
        return _balances[owner];
    }

    function getApproved(uint256 tokenId) external view returns (address) {
        ownerOf(tokenId);
        return _approvals[tokenId];
    }

    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return _operators[owner][operator];
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        return _tokenURIs[tokenId];
    }
}
