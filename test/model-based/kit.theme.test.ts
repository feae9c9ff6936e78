import { describe, expect, it } from 'vitest'
import { type AnyEventObject, createActor, createMachine, fromCallback, fromPromise, waitFor } from 'xstate'
import { resolveConfig, setThemeMode, setThemeVariables } from '../../src/config'
import { ConfigError } from '../../src/errors/base'
import { type KitEvent, kitMachine, selectCapability } from '../../src/machines/kit'
import { kitTestInput } from './kit.fixtures'

/**
 * The theme at run time (issue 18): the kit keeps it and tells the login frame. The frame is a recorder spawned
 * by the kit's own `spawnFrame` (so its input is the real one); every other child is quiet.
 */
function kitWithFrame() {
  const frameInputs: unknown[] = []
  const toFrame: AnyEventObject[] = []
  const frameLogic = createMachine({
    context: ({ input }) => {
      frameInputs.push(input)
      return {}
    },
    on: { '*': { actions: ({ event }) => void toFrame.push(event) } },
  })
  const quiet = fromCallback<KitEvent>(() => {})
  const standIn = createMachine({})
  const machine = kitMachine.provide({
    actors: {
      modal: standIn as never,
      toast: standIn as never,
      connection: standIn as never,
      telemetry: quiet,
      embeddedLoader: quiet,
      followModal: quiet,
      followConnectors: quiet,
      followFrame: quiet,
      chainStore: quiet as never,
      loadEmbedded: fromPromise(async () => ({ logic: frameLogic, restored: undefined })) as never,
      loadWallets: fromPromise(async () => standIn) as never,
    },
  })
  const base = kitTestInput('kit-theme')
  const config = resolveConfig({
    ...base.config,
    themeMode: 'dark',
    themeVariables: { '--ws-accent': '#ff3366' },
  })
  const kit = createActor(machine, { input: { ...base, config } }).start()
  const send = (event: unknown) => kit.send(event as KitEvent)
  const loadFrame = async () => {
    send({ type: 'embedded.load' })
    await waitFor(kit, (s) => selectCapability(s, 'embedded') === 'running')
  }
  return { kit, send, loadFrame, frameInputs, toFrame }
}

describe('theme at run time', () => {
  it('starts from the config and changes with kit.setThemeMode and kit.setThemeVariables (merged; undefined removes)', () => {
    const { kit, send } = kitWithFrame()
    expect(kit.getSnapshot().context.theme).toEqual({
      themeMode: 'dark',
      themeVariables: { '--ws-accent': '#ff3366' },
    })
    send({ type: 'kit.setThemeMode', themeMode: 'light' })
    send({ type: 'kit.setThemeVariables', themeVariables: { '--ws-radius': '4px' } })
    expect(kit.getSnapshot().context.theme).toEqual({
      themeMode: 'light',
      themeVariables: { '--ws-accent': '#ff3366', '--ws-radius': '4px' },
    })
    send({ type: 'kit.setThemeVariables', themeVariables: { '--ws-accent': undefined } })
    expect(kit.getSnapshot().context.theme.themeVariables).toEqual({ '--ws-radius': '4px' })
  })

  it('a frame loaded after a change starts with the theme shown now', async () => {
    const { send, loadFrame, frameInputs } = kitWithFrame()
    send({ type: 'kit.setThemeMode', themeMode: 'light' })
    await loadFrame()
    expect(frameInputs).toHaveLength(1)
    expect(frameInputs[0]).toMatchObject({
      theme: { themeMode: 'light', themeVariables: { '--ws-accent': '#ff3366' } },
    })
  })

  it('a running frame is told each change (syncTheme with the mode and the variables)', async () => {
    const { send, loadFrame, toFrame } = kitWithFrame()
    await loadFrame()
    toFrame.length = 0
    send({ type: 'kit.setThemeMode', themeMode: 'light' })
    send({ type: 'kit.setThemeVariables', themeVariables: { '--ws-accent': '#1f5fd1' } })
    expect(toFrame).toEqual([
      {
        type: 'frame.syncTheme',
        theme: { themeMode: 'light', themeVariables: { '--ws-accent': '#ff3366' } },
      },
      {
        type: 'frame.syncTheme',
        theme: { themeMode: 'light', themeVariables: { '--ws-accent': '#1f5fd1' } },
      },
    ])
  })

  it('an invalid theme sent to the kit directly is ignored: nothing kept, nothing told to the frame', async () => {
    const { kit, send, loadFrame, toFrame } = kitWithFrame()
    await loadFrame()
    toFrame.length = 0
    const before = kit.getSnapshot().context.theme
    send({ type: 'kit.setThemeMode', themeMode: 'sepia' })
    send({
      type: 'kit.setThemeVariables',
      themeVariables: { '--ws-background': 'url(https://evil.example/x)' },
    })
    send({ type: 'kit.setThemeVariables', themeVariables: { '--ws-radius': '8px;} body{display:none' } })
    send({ type: 'kit.setThemeVariables', themeVariables: { color: 'red' } })
    send({ type: 'kit.setThemeVariables', themeVariables: 'red' })
    expect(kit.getSnapshot().context.theme).toBe(before)
    expect(toFrame).toEqual([])
  })

  it('setThemeMode and setThemeVariables throw ConfigError naming the problem, and send nothing', () => {
    const sent: KitEvent[] = []
    const kit = { send: (event: KitEvent) => void sent.push(event) }
    expect(() => setThemeMode(kit, 'sepia' as never)).toThrow(ConfigError)
    let error: unknown
    try {
      setThemeVariables(kit, { '--ws-radius': '8px; color: red', ...({ '--w3m-accent': 'red' } as object) })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).details).toContain('themeVariables.--ws-radius: must be a CSS value')
    expect((error as ConfigError).details).toContain('themeVariables.--w3m-accent: is not a theme variable')
    expect(sent).toEqual([])
    setThemeMode(kit, 'light')
    setThemeVariables(kit, { '--ws-accent': '#123456' })
    expect(sent).toEqual([
      { type: 'kit.setThemeMode', themeMode: 'light' },
      { type: 'kit.setThemeVariables', themeVariables: { '--ws-accent': '#123456' } },
    ])
  })

  it('the config refuses the same variables at start', () => {
    const { config } = kitTestInput('kit-theme')
    expect(() => resolveConfig({ ...config, themeVariables: { '--ws-accent': 'url(x)' } })).toThrow(
      /themeVariables\.--ws-accent: must be a CSS value/,
    )
    expect(() =>
      resolveConfig({ ...config, themeVariables: { '--ws-accent': '#fff', '--ws-radius': '12px' } }),
    ).not.toThrow()
  })
})
