import { Connection, PublicKey } from '@solana/web3.js'
import { associatedTokenAddress, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../chains/solana/token'
import type { KitNetwork } from '../config'
import { SOLANA_LAMPORTS_PER_SIGNATURE, SOLANA_SEND_COMMITMENT, SPL_TOKEN_ACCOUNT_SIZE } from '../constants'
import { InvalidAmountError, SendAccountNotFoundError, UnsupportedChainError } from '../errors/send'
import { toSolanaError } from '../errors/solana'
import type { FeeEstimate, SolanaSendRequest } from '../machines/send'
import { solanaWalletClient } from './solanaConnection'

/*
 * Solana's side of the send flow (issue 17): the fee of a transfer and the transfer itself, over the connected
 * wallet's client (src/chains/solana/wallet.ts). Part of Solana's chunk: `createSendActors` loads it on the
 * first Solana send, so the eip155 send never fetches @solana/web3.js.
 */

/** What the send flow's Solana slots call (src/actors/send.ts). */
export interface SolanaSender {
  /** The network fee in lamports: the signature, plus the rent of a token account the send creates. */
  estimateFee(request: SolanaSendRequest): Promise<FeeEstimate>
  /** Signs through the wallet, sends and waits for 'confirmed'; the signature (base58). */
  send(request: SolanaSendRequest): Promise<string>
}

const SOL = { symbol: 'SOL', decimals: 9 }

/**
 * @example
 * const sender = createSolanaSender(config.networks, config.rpcMap)
 * const fee = await sender.estimateFee(request) // { fee: '5000', formatted: '0.000005', symbol: 'SOL', … }
 */
export function createSolanaSender(
  networks: readonly KitNetwork[],
  rpcMap: Readonly<Record<string, string>> = {},
): SolanaSender {
  const connections = new Map<string, Connection>()
  /**
   * The configured network's RPC (its `caipNetworkId` is the token's chain id): the host's `rpcMap` URL, else the
   * network's own; one Connection each.
   */
  const connectionOf = (chainId: string): { connection: Connection; network: KitNetwork } => {
    const network = networks.find((n) => n.chainNamespace === 'solana' && n.caipNetworkId === chainId)
    const url = network && (rpcMap[network.caipNetworkId] ?? network.rpcUrls.default.http[0])
    if (!network || !url)
      throw new UnsupportedChainError({ details: `${chainId} is not a configured network` })
    let connection = connections.get(chainId)
    if (!connection) {
      connection = new Connection(url, SOLANA_SEND_COMMITMENT)
      connections.set(chainId, connection)
    }
    return { connection, network }
  }

  return {
    async estimateFee(request) {
      const { connection, network } = connectionOf(request.chainId)
      const signatures = 1
      let rent = 0n
      try {
        const to = new PublicKey(request.to)
        if (request.mint) {
          const mint = new PublicKey(request.mint)
          const mintAccount = await connection.getAccountInfo(mint, SOLANA_SEND_COMMITMENT)
          const program = mintAccount?.owner.equals(TOKEN_2022_PROGRAM_ID)
            ? TOKEN_2022_PROGRAM_ID
            : TOKEN_PROGRAM_ID
          const destination = associatedTokenAddress(mint, to, program)
          // The recipient's token account is created (and its rent paid by the sender) when missing.
          if (!(await connection.getAccountInfo(destination, SOLANA_SEND_COMMITMENT)))
            rent = BigInt(await connection.getMinimumBalanceForRentExemption(SPL_TOKEN_ACCOUNT_SIZE))
        } else if (!(await connection.getAccountInfo(to, SOLANA_SEND_COMMITMENT))) {
          // A new account must hold its rent-exempt minimum, or the chain refuses the transfer.
          const minimum = BigInt(await connection.getMinimumBalanceForRentExemption(0))
          if (request.amount < minimum)
            throw new InvalidAmountError({
              details: `A new Solana account needs at least ${minimum} lamports`,
            })
        }
      } catch (error) {
        if (error instanceof InvalidAmountError) throw error
        throw toSolanaError(error, 'send')
      }
      const fee = BigInt(SOLANA_LAMPORTS_PER_SIGNATURE * signatures) + rent
      const decimals = network.nativeCurrency.decimals ?? SOL.decimals
      return {
        gas: String(signatures),
        fee: fee.toString(),
        ...(rent > 0n ? { rent: rent.toString() } : {}),
        formatted: lamportsText(fee, decimals),
        symbol: network.nativeCurrency.symbol || SOL.symbol,
        decimals,
      }
    },

    async send(request) {
      const { connection } = connectionOf(request.chainId)
      if (!request.connectorId || !request.from) throw new SendAccountNotFoundError()
      const client = solanaWalletClient(request.connectorId)
      // The wallet's account changed since the kit last heard: nothing is signed by another account.
      if (client.account?.address !== request.from)
        throw new SendAccountNotFoundError({ details: `${request.from} is not the wallet's account` })
      const options = { preflightCommitment: SOLANA_SEND_COMMITMENT } as const
      return request.mint
        ? client.sendSpl({
            mint: request.mint,
            to: request.to,
            amount: request.amount,
            decimals: request.decimals,
            connection,
            options,
          })
        : client.sendSol({ to: request.to, lamports: request.amount, connection, options })
    },
  }
}

/** Base units as a decimal string (`5000` lamports → `0.000005`). */
function lamportsText(units: bigint, decimals: number): string {
  const text = units.toString().padStart(decimals + 1, '0')
  const whole = text.slice(0, text.length - decimals)
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}
