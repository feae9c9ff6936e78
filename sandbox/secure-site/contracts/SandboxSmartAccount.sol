// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The embedded wallet's smart account: one owner key (the account's EOA), deployed on first use through the
/// deterministic CREATE2 deployer anvil ships, so its address is known before it exists (counterfactual).
/// Signatures of an undeployed account are ERC-6492-wrapped by the secure site; once deployed, ERC-1271 below.
/// Sandbox simplification: it accepts the owner's signature over the same hash the EOA would sign (no
/// account-bound replay protection), which keeps verification simple for the kit and its tests.
contract SandboxSmartAccount {
    address public immutable owner;

    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;
    bytes4 private constant ERC1271_INVALID = 0xffffffff;
    /// secp256k1n / 2: larger s values are malleable duplicates (EIP-2).
    uint256 private constant HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    event Executed(address indexed to, uint256 value, bytes data);

    error NotOwner();

    constructor(address owner_) {
        owner = owner_;
    }

    receive() external payable {}

    /// Calls `to` with `value` wei from this account's balance; only the owner key may ask.
    function execute(address to, uint256 value, bytes calldata data) external payable returns (bytes memory) {
        if (msg.sender != owner) revert NotOwner();
        (bool ok, bytes memory result) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        emit Executed(to, value, data);
        return result;
    }

    /// ERC-1271: valid when the 65-byte signature of `hash` recovers to the owner.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return ERC1271_INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_N) return ERC1271_INVALID;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? ERC1271_MAGIC : ERC1271_INVALID;
    }
}
