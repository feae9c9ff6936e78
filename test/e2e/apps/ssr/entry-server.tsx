import { renderToString } from 'react-dom/server'
import type { DemoSandboxConfig } from '../../../../demo/sandbox-config.ts'
import { createKit, Root } from './app'

/** The server's side: one kit for the process (as a host creates it at module level), one render a request. */
let kit: ReturnType<typeof createKit> | undefined

export function render(sandbox: DemoSandboxConfig): string {
  kit ??= createKit(sandbox)
  return renderToString(<Root kit={kit} />)
}
