import type { QueryClient } from '@tanstack/react-query'
import { type Address, type EIP1193Provider, type Hex, toHex } from 'viem'
import type { Config } from 'wagmi'
import { getConnection } from 'wagmi/actions'
import { fromPromise } from 'xstate'
import { dataApiKeys } from '../api/dataApi'
import type { NamesClient } from '../api/names'
import { fetchQueryFor } from '../api/queries'
import { NAME_CACHE_MS } from '../constants'
import { BaseError } from '../errors/base'
import { ConnectorNotConnectedError } from '../errors/connection'
import { NameLabelError, NameRegistrationError } from '../errors/names'
import type {
  NameRegisterRequest,
  NameSignedRegistration,
  NameSignRequest,
  NameSuggestion,
  NameSuggestionsRequest,
  RegisteredNameRecord,
} from '../machines/names/types'
import {
  fullNameOf,
  nameCoinTypeOf,
  nameLabelRuleOf,
  nameRegistrationMessage,
  normaliseNameLabel,
  parseNameRegistrationMessage,
} from '../utils/names'

export interface NamesActorsParameters {
  /** The kit's wagmi config: the connected wallet signs the registration message. */
  wagmi: Config
  /** The Data API's name calls (src/api/names.ts). */
  client: NamesClient
  /** The kit's QueryClient: suggestions are cached there NAME_CACHE_MS (SPEC §9). */
  queryClient: QueryClient
  /** The clock of the message's timestamp, in milliseconds (default `Date.now`). */
  now?: () => number
  /** The app's domain the message names (default: the page's host, `location.host`, as a sign-in message). */
  domain?: string
}

/** The query key of a label's suggestions, under the Data API's keys of the client's API and project. */
export const nameSuggestionsKey = (client: Pick<NamesClient, 'api' | 'projectId'>, label: string) =>
  [...dataApiKeys.all(client), 'nameSuggestions', label] as const

/**
 * The names machine's slots (src/machines/names.ts): the suggestions through the kit's QueryClient (cached 5 min,
 * one request per label at a time), the registration message built (one sentence naming the app's domain, the
 * name, the account, the chain and the time: src/utils/names.ts) and signed by the connected wallet
 * (`personal_sign` through wagmi; the coin type ENSIP-11's for the chain), and the registration. Every failure of
 * the last two leaves as 'Error registering name {name}' (src/errors/names.ts), the cause kept. A registration
 * invalidates the account's Data API reads (`dataApiKeys.account`: its reverse look-up and identity among them),
 * so the views show the new name.
 *
 * @example
 * namesMachine.provide({ actors: createNamesActors({ wagmi, client: createNamesClient({ api, projectId }), queryClient }) })
 */
export function createNamesActors({
  wagmi,
  client,
  queryClient,
  now = () => Date.now(),
  domain,
}: NamesActorsParameters) {
  return {
    fetchSuggestions: fromPromise<NameSuggestion[], NameSuggestionsRequest>(({ input, signal }) =>
      fetchQueryFor(
        queryClient,
        {
          queryKey: nameSuggestionsKey(client, input.label),
          queryFn: ({ signal: querySignal }) => client.suggestions(input.label, querySignal),
          staleTime: NAME_CACHE_MS,
          retry: false,
        },
        signal,
      ),
    ),
    signRegistration: fromPromise<NameSignedRegistration, NameSignRequest>(async ({ input }) => {
      // Nothing is signed for a label the LDH rules refuse (the machine's `nameLdh` keeps it from here).
      const label = normaliseNameLabel(input.name)
      const rule = nameLabelRuleOf(label)
      if (rule)
        throw new NameRegistrationError({ name: input.name, cause: new NameLabelError({ label, rule }) })
      const appDomain = domain ?? globalThis.location?.host
      if (!appDomain)
        throw new NameRegistrationError({ name: input.name, details: 'The message needs the page’s domain' })
      const message = nameRegistrationMessage({
        name: input.name,
        address: input.address,
        chainId: input.chainId,
        domain: appDomain,
        issuedAt: new Date(Math.floor(now() / 1000) * 1000),
      })
      try {
        const signature = await personalSign(wagmi, input.address, message)
        return { message, signature, coinType: nameCoinTypeOf(input.chainId) }
      } catch (error) {
        throw new NameRegistrationError({ name: input.name, cause: error })
      }
    }),
    registerName: fromPromise<RegisteredNameRecord, NameRegisterRequest>(async ({ input, signal }) => {
      let record: RegisteredNameRecord
      try {
        record = await client.register(input, signal)
      } catch (error) {
        if (error instanceof BaseError) throw error
        throw new NameRegistrationError({ name: nameOf(input.message), cause: error })
      }
      // The label is taken now: its cached answer says otherwise. The account's profile (its names, its
      // identity) is read again, so Account shows the name (issue 20), before the machine says it registered.
      const label = normaliseNameLabel(record.name)
      void queryClient.invalidateQueries({ queryKey: nameSuggestionsKey(client, label) })
      void queryClient.invalidateQueries({ queryKey: dataApiKeys.account(client, input.address) })
      return record
    }),
  }
}

/** The full name a registration message names (ours: src/utils/names.ts). */
/**
 * `personal_sign` of `message` by `address`, asked of the connected connector's EIP-1193 provider (what wagmi's
 * `signMessage` asks too). Not through wagmi's `signMessage`: that action brings wagmi's connector-client code
 * into this chunk, and a host's bundler (rolldown) then split the kit's first-click code into six files (+1.4 KiB
 * gzip before the first click in bench/peers).
 */
async function personalSign(wagmi: Config, address: Address, message: string): Promise<Hex> {
  const { connector } = getConnection(wagmi)
  if (!connector) throw new ConnectorNotConnectedError()
  const provider = (await connector.getProvider()) as EIP1193Provider
  return provider.request({ method: 'personal_sign', params: [toHex(message), address] })
}

function nameOf(message: string): string {
  const parsed = parseNameRegistrationMessage(message)
  return parsed ? fullNameOf(normaliseNameLabel(parsed.name)) : ''
}
