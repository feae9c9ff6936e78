// SPDX-License-Identifier: MIT
pragma solidity ^0.8.37;

/// @title SandboxWeth
/// @notice Wrapped Ether in the manner of WETH9: `deposit` (or a plain ETH transfer) mints WETH one for one,
///         `withdraw` burns it and pays the ETH back. A standard ERC-20 otherwise (functions return a bool). The
///         sandbox's swap router wraps and unwraps through it so ETH can trade in the ETH/USDC pool.
contract SandboxWeth {
    string public constant name = "Wrapped Ether";
    string public constant symbol = "WETH";
    uint8 public constant decimals = 18;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Deposit(address indexed to, uint256 value);
    event Withdrawal(address indexed from, uint256 value);

    receive() external payable {
        deposit();
    }

    /// @notice Total WETH equals the ETH the contract holds.
    function totalSupply() external view returns (uint256) {
        return address(this).balance;
    }

    function deposit() public payable {
        balanceOf[msg.sender] += msg.value;
        emit Deposit(msg.sender, msg.value);
        emit Transfer(address(0), msg.sender, msg.value);
    }

    function withdraw(uint256 value) external {
        require(balanceOf[msg.sender] >= value, "WETH: withdraw amount exceeds balance");
        unchecked {
            balanceOf[msg.sender] -= value;
        }
        emit Withdrawal(msg.sender, value);
        emit Transfer(msg.sender, address(0), value);
        (bool ok,) = msg.sender.call{value: value}("");
        require(ok, "WETH: ETH transfer failed");
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    /// @dev An allowance of type(uint256).max never decreases.
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        if (from != msg.sender) {
            uint256 allowed = allowance[from][msg.sender];
            if (allowed != type(uint256).max) {
                require(allowed >= value, "WETH: insufficient allowance");
                unchecked {
                    allowance[from][msg.sender] = allowed - value;
                }
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "WETH: transfer to the zero address");
        require(balanceOf[from] >= value, "WETH: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] -= value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
