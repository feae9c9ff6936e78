/**
 * The kit's own copy of the swap router's one function it lets a wallet be asked for: an exact-in swap
 * `swapExactIn(tokenIn, tokenOut, amountIn, minAmountOut, to, deadline)`, the native currency named by the
 * 0xEeee… marker. The convert API's build-transaction answers a call of it; the kit decodes that call against
 * this fragment before any wallet sees it (./swapBuildCheck.ts).
 */
export const swapRouterAbi = [
  {
    type: 'function',
    name: 'swapExactIn',
    stateMutability: 'payable',
    inputs: [
      { name: 'tokenIn', type: 'address' },
      { name: 'tokenOut', type: 'address' },
      { name: 'amountIn', type: 'uint256' },
      { name: 'minAmountOut', type: 'uint256' },
      { name: 'to', type: 'address' },
      { name: 'deadline', type: 'uint256' },
    ],
    outputs: [{ name: 'amountOut', type: 'uint256' }],
  },
] as const

/** ERC-20 `approve(spender, amount)`: the only call an approval built for a swap may be. */
export const erc20ApproveAbi = [
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const
