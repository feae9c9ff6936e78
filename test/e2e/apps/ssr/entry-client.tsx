import { hydrateRoot } from 'react-dom/client'
import type { DemoSandboxConfig } from '../../../../demo/sandbox-config.ts'
import { createKit, Root } from './app'

/** The browser's side: the same tree, hydrated over the server's HTML with the config the server used. */
const config = document.getElementById('ssr-sandbox')?.textContent
const root = document.getElementById('root')
if (!config || !root) throw new Error('the server-rendered page is missing its config or root')
const kit = createKit(JSON.parse(config) as DemoSandboxConfig)
hydrateRoot(root, <Root kit={kit} />)
