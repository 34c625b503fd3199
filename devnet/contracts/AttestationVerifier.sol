// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title AttestationVerifier
/// @notice The reference verifier's interface and rules. `recover` is OpenZeppelin's (v5)
/// `ECDSA.recover` of the EIP-191 personal-message hash of the text bytes: it reverts with
/// OpenZeppelin's errors for a signature that is not 65 bytes, has s in the upper half of the
/// curve order, or that ecrecover rejects (any v but 27/28 among them). `verify` compares the
/// recovered address, so it reverts on those signatures too, as the reference does.
contract AttestationVerifier {
    uint256 private constant HALF_CURVE_ORDER =
        0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;
    /// @dev `<64 hex>:<64 hex>:` then at least one byte of provider fields, `:`, `:`, `<64 hex>`.
    uint256 private constant MIN_TEXT_LENGTH = 198;

    error ECDSAInvalidSignature();
    error ECDSAInvalidSignatureLength(uint256 length);
    error ECDSAInvalidSignatureS(bytes32 s);
    error InvalidLength();
    error MissingSeparator();
    error InvalidHexChar();

    function recover(bytes calldata attestationText, bytes calldata signature) public pure returns (address signer) {
        if (signature.length != 65) revert ECDSAInvalidSignatureLength(signature.length);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > HALF_CURVE_ORDER) revert ECDSAInvalidSignatureS(s);
        signer = ecrecover(_toEthSignedMessageHash(attestationText), v, r, s);
        if (signer == address(0)) revert ECDSAInvalidSignature();
    }

    function verify(bytes calldata attestationText, bytes calldata signature, address expectedSigner)
        external
        pure
        returns (bool)
    {
        return recover(attestationText, signature) == expectedSigner;
    }

    /// @notice Splits `<contentHash>:<usageHash>:<providerType>:<providerIdentity>:<tlsCertFingerprint>`.
    /// The hash fields are 64 hex digits (either case) at fixed places; the provider fields run to
    /// the next `:` and may hold any other bytes, UTF-8 included, or none. Reverts when the text
    /// does not have that form or is shorter than 198 bytes.
    function parseAttestationText(bytes calldata text)
        external
        pure
        returns (
            bytes32 contentHash,
            bytes32 usageHash,
            string memory providerType,
            string memory providerIdentity,
            bytes32 tlsCertFingerprint
        )
    {
        if (text.length < MIN_TEXT_LENGTH) revert InvalidLength();
        contentHash = _hexWord(text[0:64]);
        if (text[64] != ":") revert MissingSeparator();
        usageHash = _hexWord(text[65:129]);
        if (text[129] != ":") revert MissingSeparator();
        uint256 typeEnd = _nextColon(text, 130);
        uint256 identityEnd = _nextColon(text, typeEnd + 1);
        if (text.length - identityEnd - 1 != 64) revert InvalidLength();
        providerType = string(text[130:typeEnd]);
        providerIdentity = string(text[typeEnd + 1:identityEnd]);
        tlsCertFingerprint = _hexWord(text[identityEnd + 1:]);
    }

    /// @dev keccak256("\x19Ethereum Signed Message:\n" || decimal(len(text)) || text)
    function _toEthSignedMessageHash(bytes calldata text) private pure returns (bytes32) {
        return keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n", _decimal(text.length), text));
    }

    function _decimal(uint256 value) private pure returns (bytes memory digits) {
        uint256 length = 1;
        for (uint256 rest = value / 10; rest != 0; rest /= 10) length++;
        digits = new bytes(length);
        for (uint256 i = length; i > 0; i--) {
            digits[i - 1] = bytes1(uint8(48 + (value % 10)));
            value /= 10;
        }
    }

    function _nextColon(bytes calldata text, uint256 from) private pure returns (uint256) {
        for (uint256 i = from; i < text.length; i++) {
            if (text[i] == ":") return i;
        }
        revert MissingSeparator();
    }

    function _hexWord(bytes calldata digits) private pure returns (bytes32) {
        uint256 word;
        for (uint256 i = 0; i < 64; i++) {
            word = (word << 4) | _nibble(uint8(digits[i]));
        }
        return bytes32(word);
    }

    function _nibble(uint8 digit) private pure returns (uint256) {
        if (digit >= 0x30 && digit <= 0x39) return digit - 0x30;
        if (digit >= 0x61 && digit <= 0x66) return digit - 0x61 + 10;
        if (digit >= 0x41 && digit <= 0x46) return digit - 0x41 + 10;
        revert InvalidHexChar();
    }
}
