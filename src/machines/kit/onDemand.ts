/**
 * A region of the root loaded on demand (the login frame, the remote session client, the Account view's machine,
 * the wallet listing): its code costs nothing until a load event asks for it (a capability has its own host:
 * src/machines/capability.ts).
 *
 * `idle` → (load event) → `loading` (the loader actor imports the code and returns the machine) → `running`
 * (the machine is spawned by `started`, given the loader's output as params; `follow` turns its notices into
 * kit events) or `failed` (an error, or no answer within the kit's `onDemandLoad` delay: the next load event
 * tries again). One call of {@link onDemand} per region:
 *
 * @example
 * wallets: onDemand({ load: 'listing.load', loader: 'loadWallets', started: 'spawnWallets', follow: 'followWallets' }),
 */
export interface OnDemand<
  Load extends string,
  Loader extends string,
  Started extends string,
  Action extends string,
  Follow extends string,
  Guard extends string,
> {
  /** The event asking for the capability (e.g. `listing.load`); sent again after a failure, it retries. */
  load: Load
  /** The actor (in the kit's `setup`) that loads the code and returns the capability's machine. */
  loader: Loader
  /** The action, given the loader's output as its params, that spawns the capability's machine. */
  started: Started
  /** The actor that follows the running machine's notices (invoked while `running`). */
  follow: Follow
  /** An action run on entering `running`, once the machine is spawned. */
  running?: Action
  /** An action run when the code did not load (besides staying retryable). */
  failed?: Action
  /** Only load when this guard holds (e.g. the feature is on). */
  guard?: Guard
  /** Load at once, without waiting for the event, when this guard holds (e.g. a stored login to restore). */
  atStart?: Guard
  /**
   * The event that ends the running machine, or the load under way (e.g. `swap.reset`: the machine is for one
   * account), with the action that stops it; the next load event spawns a fresh one (its code is cached).
   */
  reset?: { event: string; action: Action }
}

export function onDemand<
  const Load extends string,
  const Loader extends string,
  const Started extends string,
  const Follow extends string,
  const Action extends string = never,
  const Guard extends string = never,
>(region: OnDemand<Load, Loader, Started, Action, Follow, Guard>) {
  const actions = (action: Action | undefined): Action[] => (action ? [action] : [])
  const toLoading = region.guard ? { guard: region.guard, target: 'loading' as const } : ('loading' as const)
  const load = { [region.load]: toLoading } as Record<Load, typeof toLoading>
  const reset = region.reset
    ? { [region.reset.event]: { target: 'idle' as const, actions: [region.reset.action] } }
    : {}
  return {
    initial: 'idle' as const,
    states: {
      idle: {
        always: region.atStart ? [{ guard: region.atStart, target: 'loading' as const }] : [],
        on: load,
      },
      loading: {
        invoke: {
          id: region.loader,
          src: region.loader,
          onDone: {
            target: 'running' as const,
            actions: {
              type: region.started,
              params: ({ event }: { event: { output: unknown } }) => event.output as never,
            },
          },
          onError: { target: 'failed' as const, actions: actions(region.failed) },
        },
        /** A chunk that never arrives counts as failed (`onDemandLoad`, ON_DEMAND_LOAD_TIMEOUT_MS): retryable. */
        after: { onDemandLoad: { target: 'failed' as const, actions: actions(region.failed) } },
        /** Reset while loading: what loads is for what was, and is not started. */
        on: reset,
      },
      running: {
        entry: actions(region.running),
        invoke: { id: region.follow, src: region.follow },
        on: reset,
      },
      /** The code did not load (offline, a blocked chunk): the next load event tries again. */
      failed: { on: load },
    },
  }
}
