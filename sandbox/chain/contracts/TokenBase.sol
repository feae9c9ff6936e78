// SPDX-License-Identifier: MIT
pragma solidity ^0.8.37;

/// @title TokenBase
/// @notice Storage, events and bookkeeping shared by the sandbox's ERC-20 tokens. The two concrete tokens differ
///         only in their external ABI: SandboxToken follows ERC-20 to the letter, SandboxTether copies USDT's
///         transfer functions, which return no value.
abstract contract TokenBase {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    /// @notice The deployer; the only account that may mint (the sandbox funds dev accounts with it).
    address public immutable owner;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        owner = msg.sender;
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == owner, "Token: only the owner mints");
        require(to != address(0), "Token: mint to the zero address");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function _transfer(address from, address to, uint256 value) internal {
        require(to != address(0), "Token: transfer to the zero address");
        uint256 balance = balanceOf[from];
        require(balance >= value, "Token: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] = balance - value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    /// @dev An allowance of type(uint256).max never decreases, as in most deployed tokens.
    function _spendAllowance(address from, address spender, uint256 value) internal {
        uint256 allowed = allowance[from][spender];
        if (allowed == type(uint256).max) return;
        require(allowed >= value, "Token: insufficient allowance");
        unchecked {
            allowance[from][spender] = allowed - value;
        }
    }

    function _approve(address holder, address spender, uint256 value) internal {
        require(spender != address(0), "Token: approve to the zero address");
        allowance[holder][spender] = value;
        emit Approval(holder, spender, value);
    }
}
