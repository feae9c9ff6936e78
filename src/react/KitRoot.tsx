import { QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { WagmiProvider } from 'wagmi'
import type { ActorOptions } from 'xstate'
import { kitServicesFor } from '../kit/createKit'
import type { KitMachine } from '../machines/kit'
import { useRootActor } from './actor'
import { KitModalLoader } from './components/KitModalLoader'
import { KitActorContext } from './context'

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
 * Runs the kit and renders its modal; provides wagmi and react-query, so a host needs no other provider.
 *
 * @example
 * const kit = createKitMachine({ projectId: 'abc', networks: [defineEvmNetwork(mainnet)] })
 * createRoot(el).render(<KitRoot machine={kit}><App /></KitRoot>)
 */
export function KitRoot({ machine, inspect, options, children }: KitRootProps) {
  // createKitMachine binds the kit's input; a bare `kitMachine` gets it through `options.input`.
  const actor = useRootActor(machine, { input: undefined, ...options, ...(inspect ? { inspect } : {}) })
  // The kit's own QueryClient and wagmi config (createKitMachine built them); a machine provided by hand
  // (tests) gets fresh ones.
  const [{ queryClient, wagmi: wagmiConfig }] = useState(() =>
    kitServicesFor(machine, actor.getSnapshot().context.config),
  )
  return (
    <KitActorContext.Provider value={actor}>
      <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
        <QueryClientProvider client={queryClient}>
          {children}
          <KitModalLoader />
        </QueryClientProvider>
      </WagmiProvider>
    </KitActorContext.Provider>
  )
}
