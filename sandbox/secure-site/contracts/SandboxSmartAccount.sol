// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// ERC-4337 v0.7's user operation as the EntryPoint hands it to `validateUserOp` (its field order is the ABI).
struct PackedUserOperation {
    address sender;
    uint256 nonce;
    bytes initCode;
    bytes callData;
    bytes32 accountGasLimits;
    uint256 preVerificationGas;
    bytes32 gasFees;
    bytes paymasterAndData;
    bytes signature;
}

/// The embedded wallet's smart account: an ERC-4337 v0.7 account with one owner key (the account's EOA).
/// Deployed on first use through the deterministic CREATE2 deployer anvil ships (by {SandboxSmartAccountFactory},
/// the user operation's factory, or by anyone sending the deployer the account's creation code), so its address
/// is known before it exists (counterfactual). Signatures of an undeployed account are ERC-6492-wrapped by the
/// secure site; once deployed, ERC-1271 below.
/// Sandbox simplification: it accepts the owner's signature over the same hash the EOA would sign (no
/// account-bound replay protection), which keeps verification simple for the kit and its tests.
/// ERC-7715 permissions, enforced here: the owner grants a signer (an app's session key) a spend limit on one
/// ERC-20 token until an expiry; a user operation signed by that signer (signature = 0x01 ++ permission id ++ its
/// 65-byte signature) is valid only when it is exactly `execute(token, 0, transfer(to, amount))` with `amount`
/// within what is left of the limit, and only until the expiry; the owner revokes it at any time.
contract SandboxSmartAccount {
    /// The canonical EntryPoint v0.7 (the sandbox chain deploys it at this address at start).
    address public constant ENTRY_POINT = 0x0000000071727De22E5E9d8BAf0edAc6f37da032;

    address public immutable owner;

    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;
    bytes4 private constant ERC1271_INVALID = 0xffffffff;
    /// ERC-4337's validation data for a signature that does not verify.
    uint256 private constant SIG_VALIDATION_FAILED = 1;
    /// secp256k1n / 2: larger s values are malleable duplicates (EIP-2).
    uint256 private constant HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// The first byte of a user operation's signature made by a permission's signer.
    bytes1 private constant PERMISSION_SIGNATURE = 0x01;
    /// 1 + 32 (permission id) + 65 (signature).
    uint256 private constant PERMISSION_SIGNATURE_LENGTH = 98;
    /// ERC-20 `transfer(address,uint256)`.
    bytes4 private constant TRANSFER = 0xa9059cbb;

    /// One call of a batch (the order of `executeBatch`'s tuple).
    struct Call {
        address target;
        uint256 value;
        bytes data;
    }

    /// An ERC-7715 permission: `signer` may transfer up to `limit` of `token` in all, until `expiry`.
    struct Permission {
        address signer;
        address token;
        uint256 limit;
        uint256 spent;
        uint48 expiry;
        bool active;
    }

    mapping(bytes32 id => Permission) public permissions;
    /// How many permissions were granted (part of each id, so two grants never share one).
    uint256 public permissionCount;

    event Executed(address indexed to, uint256 value, bytes data);
    event PermissionGranted(
        bytes32 indexed id, address indexed signer, address indexed token, uint256 limit, uint48 expiry
    );
    event PermissionRevoked(bytes32 indexed id);

    error NotOwner();
    error NotEntryPoint();
    error UnknownPermission(bytes32 id);
    error InvalidPermission();

    constructor(address owner_) {
        owner = owner_;
    }

    receive() external payable {}

    modifier onlyOwnerOrEntryPoint() {
        if (msg.sender != owner && msg.sender != ENTRY_POINT) revert NotOwner();
        _;
    }

    /// The owner directly, or the account itself (an owner's user operation calling `execute(this, ...)`).
    modifier onlyOwnerOrSelf() {
        if (msg.sender != owner && msg.sender != address(this)) revert NotOwner();
        _;
    }

    /// ERC-4337: the owner's signature (EIP-191, over the user operation's hash) makes the operation valid; the
    /// account pays the EntryPoint what it is missing of the operation's prefund from its own balance.
    function validateUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, uint256 missingAccountFunds)
        external
        returns (uint256 validationData)
    {
        if (msg.sender != ENTRY_POINT) revert NotEntryPoint();
        bytes32 digest = keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", userOpHash));
        bytes calldata signature = userOp.signature;
        if (signature.length == PERMISSION_SIGNATURE_LENGTH && signature[0] == PERMISSION_SIGNATURE) {
            validationData = _validatePermission(bytes32(signature[1:33]), digest, signature[33:], userOp.callData);
        } else {
            validationData = _recover(digest, signature) == owner ? 0 : SIG_VALIDATION_FAILED;
        }
        if (missingAccountFunds > 0) {
            // The EntryPoint checks the deposit itself; a failed payment fails the operation there.
            (bool paid,) = payable(msg.sender).call{value: missingAccountFunds}("");
            paid;
        }
    }

    /// Calls `to` with `value` wei from this account's balance; only the owner key or the EntryPoint may ask.
    function execute(address to, uint256 value, bytes calldata data)
        external
        payable
        onlyOwnerOrEntryPoint
        returns (bytes memory)
    {
        return _call(to, value, data);
    }

    /// Runs every call in order, all or nothing (one reverting call reverts the batch with its reason).
    function executeBatch(Call[] calldata calls) external payable onlyOwnerOrEntryPoint {
        for (uint256 i = 0; i < calls.length; i++) {
            _call(calls[i].target, calls[i].value, calls[i].data);
        }
    }

    /// ERC-7715: lets `signer` transfer up to `limit` of `token` from this account until `expiry` (unix seconds).
    function grantPermission(address signer, address token, uint256 limit, uint48 expiry)
        external
        onlyOwnerOrSelf
        returns (bytes32 id)
    {
        if (signer == address(0) || token == address(0) || token == address(this) || expiry <= block.timestamp) {
            revert InvalidPermission();
        }
        id = keccak256(abi.encode(address(this), permissionCount++, signer, token, limit, expiry));
        permissions[id] = Permission(signer, token, limit, 0, expiry, true);
        emit PermissionGranted(id, signer, token, limit, expiry);
    }

    /// Ends a permission: its signer's operations are refused from now on.
    function revokePermission(bytes32 id) external onlyOwnerOrSelf {
        if (!permissions[id].active) revert UnknownPermission(id);
        permissions[id].active = false;
        emit PermissionRevoked(id);
    }

    /// ERC-1271: valid when the 65-byte signature of `hash` recovers to the owner.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return _recover(hash, signature) == owner ? ERC1271_MAGIC : ERC1271_INVALID;
    }

    function _call(address to, uint256 value, bytes calldata data) private returns (bytes memory) {
        (bool ok, bytes memory result) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        emit Executed(to, value, data);
        return result;
    }

    /// A permission signer's operation: valid (until the expiry) when the permission is active, the call one transfer
    /// of its token within what is left of the limit (which it then uses up), and the signature its signer's. The
    /// signature is checked last, so gas estimated with a stub signature covers the whole path; an operation whose
    /// signature fails is refused by the EntryPoint, and what it wrote here is undone with it.
    function _validatePermission(bytes32 id, bytes32 digest, bytes calldata signature, bytes calldata callData)
        private
        returns (uint256)
    {
        Permission storage permission = permissions[id];
        if (!permission.active) return SIG_VALIDATION_FAILED;
        if (callData.length < 4 || bytes4(callData[0:4]) != this.execute.selector) return SIG_VALIDATION_FAILED;
        (address to, uint256 value, bytes memory data) = abi.decode(callData[4:], (address, uint256, bytes));
        if (to != permission.token || value != 0 || data.length != 68) return SIG_VALIDATION_FAILED;
        bytes4 selector;
        uint256 amount;
        assembly {
            selector := mload(add(data, 32))
            amount := mload(add(data, 68))
        }
        if (selector != TRANSFER || amount > permission.limit - permission.spent) return SIG_VALIDATION_FAILED;
        permission.spent += amount;
        if (_recover(digest, signature) != permission.signer) return SIG_VALIDATION_FAILED;
        // ERC-4337 validation data: no aggregator, valid until the expiry.
        return uint256(permission.expiry) << 160;
    }

    /// The signer of `hash`, or the zero address for a malformed or malleable signature (never reverts).
    function _recover(bytes32 hash, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_N) return address(0);
        return ecrecover(hash, v, r, s);
    }
}

/// The ERC-4337 factory of {SandboxSmartAccount}: `createAccount(owner)` deploys the owner's account through the
/// deterministic CREATE2 deployer (the same address a direct deployment there gives) and answers its address,
/// also when it exists already. Deployed itself through that deployer, so its address is fixed too.
contract SandboxSmartAccountFactory {
    address public constant CREATE2_DEPLOYER = 0x4e59b44847b379578588920cA78FbF26c0B4956C;
    /// keccak256("walletstate.sandbox.smart-account.v1"): the accounts' CREATE2 salt.
    bytes32 public constant SALT = keccak256("walletstate.sandbox.smart-account.v1");

    error DeployFailed(address owner);

    function createAccount(address owner) external returns (address account) {
        bytes memory initCode = abi.encodePacked(type(SandboxSmartAccount).creationCode, abi.encode(owner));
        account = _predict(initCode);
        if (account.code.length > 0) return account;
        (bool ok,) = CREATE2_DEPLOYER.call(abi.encodePacked(SALT, initCode));
        if (!ok || account.code.length == 0) revert DeployFailed(owner);
    }

    function getAddress(address owner) external pure returns (address) {
        return _predict(abi.encodePacked(type(SandboxSmartAccount).creationCode, abi.encode(owner)));
    }

    function _predict(bytes memory initCode) private pure returns (address) {
        bytes32 digest = keccak256(abi.encodePacked(bytes1(0xff), CREATE2_DEPLOYER, SALT, keccak256(initCode)));
        return address(uint160(uint256(digest)));
    }
}
