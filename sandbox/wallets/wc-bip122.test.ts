import bs58 from 'bs58'
import { sha256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  BIP122_CHAIN,
  bip122Address,
  bitcoinMessageHash,
  planBip122Request,
  signBitcoinMessage,
} from './wc/bip122.ts'
import {
  legacyMessageHash,
  recoveredBitcoinAddress as recoveredAddress,
} from './wc/bitcoinMessage.test-support.ts'

/**
 * The WalletConnect wallet page's bip122 account: a regtest P2PKH address, and `signMessage` in Bitcoin Core's
 * legacy message format. Each signature is checked as `verifymessage` does, with viem's secp256k1 recovery (the
 * @noble/curves it wraps): the key recovered from the compact signature must hash to the address.
 */

const request = (method: string, params: unknown, chainId = BIP122_CHAIN) =>
  ({ id: 1, topic: 't', chainId, request: { method, params } }) as never

describe('the wallet page’s bip122 account', () => {
  it('hashes messages as Bitcoin Core does', () => {
    expect(bitcoinMessageHash('Hello')).toBe(legacyMessageHash('Hello'))
  })

  it('is a regtest P2PKH address (m… or n…), base58check', () => {
    expect(bip122Address).toMatch(/^[mn][1-9A-HJ-NP-Za-km-z]{25,34}$/)
    const decoded = bs58.decode(bip122Address)
    expect(decoded[0]).toBe(0x6f)
    expect(toHex(decoded.subarray(21))).toBe(sha256(sha256(decoded.subarray(0, 21))).slice(0, 10))
  })

  it('signs a message that verifies for its address, and for no other message', async () => {
    const signature = await signBitcoinMessage('Hello from the Walletstate demo')
    expect(await recoveredAddress('Hello from the Walletstate demo', signature)).toBe(bip122Address)
    expect(await recoveredAddress('Hello from the Walletstate demo!', signature)).not.toBe(bip122Address)
  })

  it('signMessage asks the person and answers { address, signature }; foreign accounts, chains and methods are refused', async () => {
    const plan = planBip122Request(request('signMessage', { account: bip122Address, message: 'hi' }), 'App')
    expect(plan.kind).toBe('ask')
    if (plan.kind !== 'ask') return
    const answer = (await plan.run()) as { address: string; signature: string }
    expect(answer.address).toBe(bip122Address)
    expect(await recoveredAddress('hi', answer.signature)).toBe(bip122Address)
    const foreign = planBip122Request(request('signMessage', { account: 'mfoo', message: 'hi' }), 'App')
    expect(foreign).toMatchObject({ kind: 'refuse', error: { code: -32602 } })
    expect(
      planBip122Request(
        request('signMessage', { message: 'hi' }, 'bip122:000000000019d6689c085ae165831e93'),
        'App',
      ),
    ).toMatchObject({ kind: 'refuse' })
    expect(planBip122Request(request('sendTransfer', {}), 'App')).toMatchObject({ kind: 'refuse' })
    expect(
      planBip122Request(request('signMessage', { message: 'hi', protocol: 'bip322' }), 'App'),
    ).toMatchObject({ kind: 'refuse', error: { code: -32602 } })
  })
})
