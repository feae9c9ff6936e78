import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

/**
 * The viewer's scripts, made once per process at their first request: the client (`./client.ts` and what it
 * imports) bundled with Vite's build API, in memory, and elkjs's browser bundle read from node_modules.
 */
let client: Promise<string> | undefined
let elk: Promise<string> | undefined

export function viewerScript(): Promise<string> {
  client ??= bundleClient().catch((error: unknown) => {
    client = undefined
    throw error
  })
  return client
}

export function elkScript(): Promise<string> {
  elk ??= readFile(createRequire(import.meta.url).resolve('elkjs/lib/elk.bundled.js'), 'utf8').catch(
    (error: unknown) => {
      elk = undefined
      throw error
    },
  )
  return elk
}

async function bundleClient(): Promise<string> {
  const { build } = await import('vite')
  const entry = fileURLToPath(new URL('./client.ts', import.meta.url))
  // Vite sets NODE_ENV for the whole process when it is unset: the sandbox's other servers must not see it.
  const nodeEnv = process.env.NODE_ENV
  const result = await build({
    configFile: false,
    root: fileURLToPath(new URL('.', import.meta.url)),
    logLevel: 'silent',
    publicDir: false,
    build: {
      write: false,
      minify: false,
      sourcemap: false,
      target: 'es2022',
      modulePreload: false,
      copyPublicDir: false,
      rolldownOptions: { input: entry, output: { format: 'es', entryFileNames: 'viewer.js' } },
    },
  }).finally(() => {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  })
  const outputs = Array.isArray(result) ? result : [result]
  for (const output of outputs) {
    if (!('output' in output)) continue
    const chunk = output.output.find((item) => item.type === 'chunk' && item.isEntry)
    if (chunk && chunk.type === 'chunk') return chunk.code
  }
  throw new Error('the viewer bundle has no entry chunk')
}
