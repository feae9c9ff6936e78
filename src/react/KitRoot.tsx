import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useContext, useEffect, useState } from 'react'
import { WagmiContext, WagmiProvider } from 'wagmi'
import type { ActorOptions } from 'xstate'
import { adoptQueryClient, kitServicesFor } from '../kit/createKit'
import type { KitMachine } from '../machines/kit'
import { useRootActor } from './actor'
import { KitModalLoader } from './components/KitModalLoader'
import { KitActorContext } from './context'
import { preloadLegalCheckbox } from './views/Connect'

export interface KitRootProps {
  /** The kit from `createKitMachine(config)`, created once at module level. */
  machine: KitMachine
  /**
   * Receives every inspection event of every actor of the kit: pass `inspector.inspect` from
   * `@statelyai/inspect` to watch the machines live (see the README).
   */
  inspect?: ActorOptions<KitMachine>['inspect']
  /** Actor options beyond `inspect`, e.g. a `SimulatedClock` in tests. */
  options?: Omit<ActorOptions<KitMachine>, 'inspect'>
  children?: ReactNode
}

/**
 * Runs the kit and renders its modal; provides wagmi and react-query, so a host needs no other provider. A
 * host's `WagmiProvider` above it with the kit's wagmi config (the `wagmiConfig` option) and a host's
 * `QueryClientProvider` above it are used as they are (the kit then caches in the host's QueryClient).
 *
 * @example
 * import { createRoot } from 'react-dom/client'
 * import { mainnet, sepolia } from 'viem/chains'
 * import { createKitMachine } from 'walletstate'
 * import { ConnectButton, KitRoot } from 'walletstate/react'
 *
 * const kit = createKitMachine({ projectId: 'abc', networks: [mainnet, sepolia] })
 * createRoot(document.getElementById('root')!).render(
 *   <KitRoot machine={kit}>
 *     <ConnectButton />
 *   </KitRoot>,
 * )
 */
export function KitRoot({ machine, inspect, options, children }: KitRootProps) {
  // createKitMachine binds the kit's input; a bare `kitMachine` gets it through `options.input`.
  const actor = useRootActor(machine, { input: undefined, ...options, ...(inspect ? { inspect } : {}) })
  const hostWagmi = useContext(WagmiContext)
  const hostQueryClient = useContext(QueryClientContext)
  // The kit's QueryClient and wagmi config (createKitMachine built them, or took the host's wagmi config); a
  // machine provided by hand (tests) gets fresh ones. A host's QueryClient above becomes the kit's before the
  // kit starts (its actors start in an effect, after this render).
  const [{ queryClient, wagmi: wagmiConfig }] = useState(() => {
    if (hostQueryClient) adoptQueryClient(machine, hostQueryClient)
    return kitServicesFor(machine, actor.getSnapshot().context.config)
  })
  const withQueries = (node: ReactNode) =>
    hostQueryClient ? node : <QueryClientProvider client={queryClient}>{node}</QueryClientProvider>
  const withWagmi = (node: ReactNode) => (
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      {node}
    </WagmiProvider>
  )
  const foreignWagmi = hostWagmi !== undefined && hostWagmi !== wagmiConfig
  useEffect(() => {
    // The warning's text loads only for a page that needs it.
    if (foreignWagmi)
      import('./foreignWagmi').then(
        ({ warnForeignWagmi }) => warnForeignWagmi(),
        () => undefined,
      )
  }, [foreignWagmi])
  // The legal checkbox's code, only when the host turned it on: fetched now, Connect shows it at once.
  const legalCheckbox = actor.getSnapshot().context.config.features.legalCheckbox
  useEffect(() => {
    if (legalCheckbox) preloadLegalCheckbox().catch(() => undefined)
  }, [legalCheckbox])
  const modal = <KitModalLoader />
  return (
    <KitActorContext.Provider value={actor}>
      {hostWagmi === wagmiConfig ? (
        withQueries(
          <>
            {children}
            {modal}
          </>,
        )
      ) : foreignWagmi ? (
        // A host's WagmiProvider with another config: its components keep it; the kit's views get the kit's.
        <>
          {withQueries(children)}
          {withWagmi(withQueries(modal))}
        </>
      ) : (
        withWagmi(
          withQueries(
            <>
              {children}
              {modal}
            </>,
          ),
        )
      )}
    </KitActorContext.Provider>
  )
}
