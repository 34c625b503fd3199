// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title AttestationVerifier
/// @notice Recovers the signer of an attestation text signed as an EIP-191 personal message.
/// Recovery follows OpenZeppelin's ECDSA.tryRecover (v5) exactly, so off-chain code can mirror it:
/// the signature must be 65 bytes r‖s‖v, s must be in the lower half of the curve order, and any
/// v other than 27/28 (or any input ecrecover rejects) is an invalid signature.
contract AttestationVerifier {
    /// @dev Same order as OpenZeppelin's ECDSA.RecoverError, so the numbers agree with it.
    enum RecoverError {
        NoError,
        InvalidSignature,
        InvalidSignatureLength,
        InvalidSignatureS
    }

    uint256 private constant HALF_CURVE_ORDER =
        0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @return signer the recovered address, or zero when `recoverError` is not NoError
    /// @return recoverError a RecoverError as uint8: 0 NoError, 1 InvalidSignature,
    /// 2 InvalidSignatureLength, 3 InvalidSignatureS
    function tryRecover(bytes calldata text, bytes calldata signature)
        public
        pure
        returns (address signer, uint8 recoverError)
    {
        if (signature.length != 65) return (address(0), uint8(RecoverError.InvalidSignatureLength));
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > HALF_CURVE_ORDER) return (address(0), uint8(RecoverError.InvalidSignatureS));
        signer = ecrecover(toEthSignedMessageHash(text), v, r, s);
        if (signer == address(0)) return (address(0), uint8(RecoverError.InvalidSignature));
        return (signer, uint8(RecoverError.NoError));
    }

    function verify(bytes calldata text, bytes calldata signature, address expected)
        external
        pure
        returns (bool)
    {
        (address signer, uint8 recoverError) = tryRecover(text, signature);
        return recoverError == uint8(RecoverError.NoError) && signer == expected;
    }

    /// @notice keccak256("\x19Ethereum Signed Message:\n" || decimal(len(text)) || text)
    function toEthSignedMessageHash(bytes calldata text) public pure returns (bytes32) {
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
}
