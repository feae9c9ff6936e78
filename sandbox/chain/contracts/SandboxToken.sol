// SPDX-License-Identifier: MIT
pragma solidity ^0.8.37;

import {TokenBase} from "./TokenBase.sol";

/// @title SandboxToken
/// @notice A standard ERC-20 (EIP-20): transfer, transferFrom and approve return a bool. The sandbox deploys it
///         twice, as "Sandbox USD Coin" (USDC, 6 decimals) and "Sandbox Token" (STK, 18 decimals).
contract SandboxToken is TokenBase {
    constructor(string memory name_, string memory symbol_, uint8 decimals_) TokenBase(name_, symbol_, decimals_) {}

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _spendAllowance(from, msg.sender, value);
        _transfer(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }
}
