import type { QueryClient } from '@tanstack/react-query'
import { type Address, erc20Abi, formatUnits, getAddress, isAddress } from 'viem'
import type { Config } from 'wagmi'
import { getBalance, readContracts } from 'wagmi/actions'
import { getBalanceQueryOptions } from 'wagmi/query'
import type { BalancesResult, TokenBalance } from '../../api/dataApi'
import { NATIVE_BALANCE_CACHE_MS } from '../../constants'

/**
 * The Data API's balances with every amount on the account's own EVM chain as the chain answers it: the API says
 * which tokens the account holds and what they are worth, the chain says how much (the native balance, and each
 * ERC-20's `balanceOf` and `decimals()`, all the ERC-20 reads in one request: wagmi's `readContracts` is one
 * multicall, SPEC §9's batch). A token whose contract does not answer both is dropped (nothing is shown that the
 * chain does not confirm); a chain that answers none of them fails the whole fetch, as a failed API call does.
 * Balances of another namespace (Solana's) or of a chain the kit does not serve are returned as they came.
 * With `cache`, the native balance is wagmi's balance query in the kit's QueryClient: the one Account's header
 * reads (SPEC §9 native balance cache), so the two share one request; `fresh` (after a transaction) asks again.
 *
 * @example
 * const checked = await withChainAmounts(wagmi, { address, chainId: 'eip155:1' }, await api.getBalances(...))
 */
export async function withChainAmounts(
  wagmi: Config,
  owner: { address: string; chainId: string },
  result: BalancesResult,
  cache?: { queryClient: QueryClient; fresh: boolean },
): Promise<BalancesResult> {
  const reference = /^eip155:(\d+)$/.exec(owner.chainId)?.[1]
  const chainId = Number(reference)
  const chain = wagmi.chains.find((served) => served.id === chainId)
  if (!reference || !chain || !isAddress(owner.address)) return result
  const account = getAddress(owner.address)
  const here = (balance: TokenBalance) => balance.chainId === owner.chainId
  const contractOf = (balance: TokenBalance): Address | undefined => {
    const address = balance.address?.split(':')[2]
    return address && isAddress(address) ? getAddress(address) : undefined
  }
  const contracts = result.balances.filter(here).flatMap((balance) => contractOf(balance) ?? [])
  const [native, reads] = await Promise.all([
    result.balances.some((balance) => here(balance) && !balance.address)
      ? (cache
          ? cache.queryClient.fetchQuery(
              getBalanceQueryOptions(wagmi, {
                address: owner.address as Address,
                chainId,
                query: { staleTime: cache.fresh ? 0 : NATIVE_BALANCE_CACHE_MS },
              }),
            )
          : getBalance(wagmi, { address: account, chainId })
        ).then(({ value }) => value)
      : undefined,
    contracts.length === 0
      ? []
      : readContracts(wagmi, {
          allowFailure: true,
          contracts: contracts.flatMap((address) => [
            { chainId, address, abi: erc20Abi, functionName: 'balanceOf', args: [account] } as const,
            { chainId, address, abi: erc20Abi, functionName: 'decimals' } as const,
          ]),
        }),
  ])
  const failed = reads.find((read) => read.status === 'failure')
  if (failed && reads.every((read) => read.status === 'failure')) throw failed.error
  const onChain = new Map<Address, { value: bigint; decimals: number }>()
  contracts.forEach((address, index) => {
    const [balance, decimals] = [reads[2 * index], reads[2 * index + 1]]
    if (balance?.status === 'success' && decimals?.status === 'success') {
      onChain.set(address, { value: balance.result as bigint, decimals: decimals.result as number })
    }
  })
  const checked = (balance: TokenBalance, value: bigint, decimals: number): TokenBalance => {
    const numeric = formatUnits(value, decimals)
    return {
      ...balance,
      quantity: { decimals: String(decimals), numeric },
      value: balance.price * Number(numeric),
    }
  }
  return {
    ...result,
    balances: result.balances.flatMap((balance) => {
      if (!here(balance)) return [balance]
      if (!balance.address) {
        return native === undefined ? [] : [checked(balance, native, chain.nativeCurrency.decimals)]
      }
      const contract = contractOf(balance)
      const read = contract && onChain.get(contract)
      return read ? [checked(balance, read.value, read.decimals)] : []
    }),
  }
}
