// SPDX-License-Identifier: MIT
pragma solidity ^0.8.37;

import {TokenBase} from "./TokenBase.sol";

/// @title SandboxTether
/// @notice An ERC-20 with the ABI of Tether's USDT on Ethereum mainnet: transfer, transferFrom and approve return
///         no value. Callers that decode a bool from the return data (a standard ERC-20 ABI with simulation)
///         fail against it, which is the case the kit has to handle (SPEC §9, "Several USDT contracts use a
///         different transfer ABI"). Deployed as "Sandbox Tether" (USDT, 6 decimals).
contract SandboxTether is TokenBase {
    constructor(string memory name_, string memory symbol_, uint8 decimals_) TokenBase(name_, symbol_, decimals_) {}

    function transfer(address to, uint256 value) external {
        _transfer(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        _spendAllowance(from, msg.sender, value);
        _transfer(from, to, value);
    }

    function approve(address spender, uint256 value) external {
        _approve(msg.sender, spender, value);
    }
}
