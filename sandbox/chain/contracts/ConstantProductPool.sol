// SPDX-License-Identifier: MIT
pragma solidity ^0.8.37;

/// @title ConstantProductPool
/// @notice A two-token pool that keeps reserve0 * reserve1 = k, charging 0.3% of every amount swapped in (the fee
///         stays in the pool, so k grows). Liquidity shares are tracked inside the pool, not as a token.
///         Token transfers accept both standard ERC-20s and USDT-style tokens that return no value.
contract ConstantProductPool {
    address public immutable token0;
    address public immutable token1;
    uint256 public reserve0;
    uint256 public reserve1;
    uint256 public totalShares;
    mapping(address => uint256) public sharesOf;

    event LiquidityAdded(address indexed provider, uint256 amount0, uint256 amount1, uint256 shares);
    event LiquidityRemoved(address indexed provider, uint256 amount0, uint256 amount1, uint256 shares);
    event Swap(
        address indexed sender,
        address indexed tokenIn,
        uint256 amountIn,
        address indexed tokenOut,
        uint256 amountOut,
        address to
    );

    constructor(address token0_, address token1_) {
        require(token0_ != token1_, "Pool: identical tokens");
        require(token0_.code.length > 0 && token1_.code.length > 0, "Pool: token is not a contract");
        token0 = token0_;
        token1 = token1_;
    }

    function getReserves() external view returns (uint256, uint256) {
        return (reserve0, reserve1);
    }

    /// @notice What a swap of `amountIn` of `tokenIn` pays out now: out = in*997*rOut / (rIn*1000 + in*997).
    function getAmountOut(address tokenIn, uint256 amountIn) public view returns (uint256) {
        (uint256 reserveIn, uint256 reserveOut) = tokenIn == token0 ? (reserve0, reserve1) : (reserve1, reserve0);
        require(tokenIn == token0 || tokenIn == token1, "Pool: unknown token");
        require(reserveIn > 0 && reserveOut > 0, "Pool: no liquidity");
        uint256 amountInWithFee = amountIn * 997;
        return (amountInWithFee * reserveOut) / (reserveIn * 1000 + amountInWithFee);
    }

    /// @notice Deposits both amounts (the caller approves them first). The first deposit sets the price; later
    ///         ones should match it, since shares follow the smaller side and the excess stays in the pool.
    function addLiquidity(uint256 amount0, uint256 amount1) external returns (uint256 shares) {
        require(amount0 > 0 && amount1 > 0, "Pool: zero amount");
        _pull(token0, msg.sender, amount0);
        _pull(token1, msg.sender, amount1);
        if (totalShares == 0) {
            shares = _sqrt(amount0 * amount1);
        } else {
            uint256 by0 = (amount0 * totalShares) / reserve0;
            uint256 by1 = (amount1 * totalShares) / reserve1;
            shares = by0 < by1 ? by0 : by1;
        }
        require(shares > 0, "Pool: too little liquidity");
        reserve0 += amount0;
        reserve1 += amount1;
        totalShares += shares;
        sharesOf[msg.sender] += shares;
        emit LiquidityAdded(msg.sender, amount0, amount1, shares);
    }

    function removeLiquidity(uint256 shares) external returns (uint256 amount0, uint256 amount1) {
        require(shares > 0 && shares <= sharesOf[msg.sender], "Pool: not enough shares");
        amount0 = (shares * reserve0) / totalShares;
        amount1 = (shares * reserve1) / totalShares;
        sharesOf[msg.sender] -= shares;
        totalShares -= shares;
        reserve0 -= amount0;
        reserve1 -= amount1;
        _push(token0, msg.sender, amount0);
        _push(token1, msg.sender, amount1);
        emit LiquidityRemoved(msg.sender, amount0, amount1, shares);
    }

    /// @notice Swaps `amountIn` of `tokenIn` (approved first) for the other token, paid to `to`; reverts when the
    ///         output is below `minAmountOut` (the caller's slippage bound).
    function swap(address tokenIn, uint256 amountIn, uint256 minAmountOut, address to)
        external
        returns (uint256 amountOut)
    {
        require(amountIn > 0, "Pool: zero amount");
        require(to != address(0), "Pool: swap to the zero address");
        amountOut = getAmountOut(tokenIn, amountIn);
        require(amountOut > 0, "Pool: output is zero");
        require(amountOut >= minAmountOut, "Pool: output below minimum (slippage)");
        address tokenOut = tokenIn == token0 ? token1 : token0;
        _pull(tokenIn, msg.sender, amountIn);
        if (tokenIn == token0) {
            reserve0 += amountIn;
            reserve1 -= amountOut;
        } else {
            reserve1 += amountIn;
            reserve0 -= amountOut;
        }
        _push(tokenOut, to, amountOut);
        emit Swap(msg.sender, tokenIn, amountIn, tokenOut, amountOut, to);
    }

    // Low-level calls so tokens that return nothing (USDT-style) work as well as those that return a bool.
    function _pull(address token, address from, uint256 amount) private {
        (bool ok, bytes memory answer) =
            token.call(abi.encodeWithSignature("transferFrom(address,address,uint256)", from, address(this), amount));
        require(ok && (answer.length == 0 || abi.decode(answer, (bool))), "Pool: transferFrom failed");
    }

    function _push(address token, address to, uint256 amount) private {
        (bool ok, bytes memory answer) = token.call(abi.encodeWithSignature("transfer(address,uint256)", to, amount));
        require(ok && (answer.length == 0 || abi.decode(answer, (bool))), "Pool: transfer failed");
    }

    function _sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}
