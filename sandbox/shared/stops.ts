/** Anything a test or a script starts and must stop: a sandbox service, anvil, a browser. */
export interface Closable {
  close(): Promise<void>
}

/**
 * Stops what a setup started, whether the setup finished or failed halfway. Every start is tracked the moment
 * it begins (before anything can throw), so a start that resolves after another one failed is still stopped.
 * `close()` waits for every tracked start to settle, then closes what started, last first.
 *
 * @example
 * const stops = new Stops()
 * afterAll(() => stops.close()) // registered before beforeAll can fail
 * beforeAll(async () => {
 *   ;[chain, browser] = await Promise.all([stops.track(startChain()), stops.track(launchBrowser())])
 * })
 */
export class Stops {
  readonly #started: Array<Promise<Closable | undefined>> = []
  #closing: Promise<void> | undefined

  /** Tracks one start; answers it unchanged. */
  track<T extends Closable>(start: Promise<T>): Promise<T> {
    if (this.#closing) {
      // Started after close(): stop it as soon as it is up, and still let the caller see the outcome.
      void start.then((started) => started.close()).catch(() => undefined)
      return start
    }
    this.#started.push(start.catch(() => undefined))
    return start
  }

  /** Closes everything that started (waiting for starts still under way). Errors are logged, not thrown. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const started = await Promise.all(this.#started)
      for (const item of started.reverse()) {
        if (!item) continue
        try {
          await item.close()
        } catch (error) {
          console.error('stops: a service failed to stop:', error)
        }
      }
    })()
    return this.#closing
  }
}
