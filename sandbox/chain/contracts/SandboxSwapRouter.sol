// SPDX-License-Identifier: MIT
pragma solidity ^0.8.37;

interface ISwapPool {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function getAmountOut(address tokenIn, uint256 amountIn) external view returns (uint256);
    function swap(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to) external returns (uint256);
}

interface IWrappedEther {
    function deposit() external payable;
    function withdraw(uint256 value) external;
}

/// @title SandboxSwapRouter
/// @notice Swaps an exact amount in over one registered ConstantProductPool, the pool of the pair. Native ETH is
///         named by the 0xEeee...EEeE sentinel and trades through WETH: wrapped on the way in (the call's value
///         must equal the amount), unwrapped on the way out. Tokens are pulled from the caller with transferFrom
///         (approve the router first), by low-level calls so USDT-style tokens that return no value work too.
contract SandboxSwapRouter {
    /// @notice The address that names native ETH, as the Data API's convert calls do.
    address public constant ETH = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
    address public immutable weth;
    /// @notice The deployer; the only account that may register pools.
    address public immutable owner;
    /// @notice The pool of a pair of ERC-20s (WETH for ETH), either order; zero when there is none.
    mapping(address => mapping(address => address)) public poolFor;

    event PoolRegistered(address indexed pool, address indexed token0, address indexed token1);
    event Swapped(
        address indexed sender,
        address indexed tokenIn,
        address indexed tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        address to
    );

    constructor(address weth_) {
        require(weth_.code.length > 0, "Router: WETH is not a contract");
        weth = weth_;
        owner = msg.sender;
    }

    /// @notice Only WETH pays ETH to the router (when it unwraps).
    receive() external payable {
        require(msg.sender == weth, "Router: ETH only from WETH");
    }

    /// @notice Registers a pool for its pair and lets it pull both tokens from the router for good.
    function registerPool(address pool) external {
        require(msg.sender == owner, "Router: only the owner registers pools");
        address token0 = ISwapPool(pool).token0();
        address token1 = ISwapPool(pool).token1();
        poolFor[token0][token1] = pool;
        poolFor[token1][token0] = pool;
        _approve(token0, pool, type(uint256).max);
        _approve(token1, pool, type(uint256).max);
        emit PoolRegistered(pool, token0, token1);
    }

    /// @notice The pool a swap from `tokenIn` to `tokenOut` goes through (ETH as the sentinel); reverts without one.
    function poolOf(address tokenIn, address tokenOut) public view returns (address pool) {
        pool = poolFor[_wrapped(tokenIn)][_wrapped(tokenOut)];
        require(pool != address(0), "Router: no pool for the pair");
    }

    /// @notice What swapping `amountIn` of `tokenIn` for `tokenOut` pays out now.
    function getAmountOut(address tokenIn, address tokenOut, uint256 amountIn) external view returns (uint256) {
        return ISwapPool(poolOf(tokenIn, tokenOut)).getAmountOut(_wrapped(tokenIn), amountIn);
    }

    /// @notice Swaps exactly `amountIn` of `tokenIn` for `tokenOut`, paid to `to`. Reverts when the output is
    ///         below `minAmountOut` (the caller's slippage bound) or the block is later than `deadline`.
    function swapExactIn(
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 minAmountOut,
        address to,
        uint256 deadline
    ) external payable returns (uint256 amountOut) {
        require(block.timestamp <= deadline, "Router: deadline passed");
        require(amountIn > 0, "Router: zero amount");
        require(to != address(0), "Router: swap to the zero address");
        address pool = poolOf(tokenIn, tokenOut);
        address wrappedIn = _wrapped(tokenIn);
        if (tokenIn == ETH) {
            require(msg.value == amountIn, "Router: value must equal the ETH amount");
            IWrappedEther(weth).deposit{value: amountIn}();
        } else {
            require(msg.value == 0, "Router: ETH sent with a token swap");
            _pull(tokenIn, msg.sender, amountIn);
        }
        if (tokenOut == ETH) {
            amountOut = ISwapPool(pool).swap(wrappedIn, amountIn, minAmountOut, address(this));
            IWrappedEther(weth).withdraw(amountOut);
            (bool ok,) = to.call{value: amountOut}("");
            require(ok, "Router: ETH transfer failed");
        } else {
            amountOut = ISwapPool(pool).swap(wrappedIn, amountIn, minAmountOut, to);
        }
        emit Swapped(msg.sender, tokenIn, tokenOut, amountIn, amountOut, to);
    }

    function _wrapped(address token) private view returns (address) {
        return token == ETH ? weth : token;
    }

    function _pull(address token, address from, uint256 amount) private {
        (bool ok, bytes memory answer) =
            token.call(abi.encodeWithSignature("transferFrom(address,address,uint256)", from, address(this), amount));
        require(ok && (answer.length == 0 || abi.decode(answer, (bool))), "Router: transferFrom failed");
    }

    function _approve(address token, address spender, uint256 amount) private {
        (bool ok, bytes memory answer) =
            token.call(abi.encodeWithSignature("approve(address,uint256)", spender, amount));
        require(ok && (answer.length == 0 || abi.decode(answer, (bool))), "Router: approve failed");
    }
}
