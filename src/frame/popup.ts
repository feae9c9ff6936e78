import * as v from 'valibot'
import { fromCallback } from 'xstate'
import type { SocialPopupCommand, SocialPopupEvent, SocialPopupInput } from '../machines/frame'
import { SocialResultSchema } from './protocol'
import { type FrameLog, frameOrigin } from './transport'

/**
 * The social-login popup (SPEC §4: getSocialRedirectUri → the kit opens a popup → connectSocial with the
 * returned URI), for the frame machine's `socialPopup` slot.
 *
 * The popup opens blank the moment the actor starts, which is inside the visitor's click (XState starts an
 * invoked actor synchronously within `send`), so popup blockers let it through; it is sent to the provider
 * once the frame has given the redirect URI. The visitor comes back one of two ways, both checked:
 * - the provider sends the popup back to this app's origin (the sandbox secure site does): the popup's address
 *   becomes readable again, and is the returned URI;
 * - a page of the secure site posts `frame.socialResult` to this window: accepted only from that popup, on the
 *   frame's origin, of that shape.
 * A popup closed before either cancels the login.
 */
export interface SocialPopupOptions {
  /** The app's window; the page's by default. */
  window?: Window
  /** How often to look at the popup (closed, or back on this origin). */
  pollMs?: number
  log?: FrameLog
}

const POPUP_FEATURES = 'popup=yes,width=600,height=700'

/**
 * @example
 * frameMachine.provide({ actors: { socialPopup: createSocialPopup() } })
 */
export function createSocialPopup(options: SocialPopupOptions = {}) {
  return fromCallback<SocialPopupCommand, SocialPopupInput, SocialPopupEvent>(
    ({ input, sendBack, receive }) => {
      const win = options.window ?? window
      const origin = frameOrigin(input.endpoint)
      const popup = win.open('about:blank', `walletstate-${input.provider}`, POPUP_FEATURES)
      if (!popup) {
        sendBack({ type: 'frame.socialCancelled', reason: 'blocked' })
        return () => {}
      }
      let settled = false
      let navigated = false
      const finish = (uri: string) => {
        settled = true
        sendBack({ type: 'frame.socialCallback', uri })
        popup.close()
      }
      const onMessage = (event: MessageEvent) => {
        if (settled || event.source !== popup || event.origin !== origin) return
        const result = v.safeParse(SocialResultSchema, event.data)
        if (result.success) finish(result.output.payload.uri)
        else options.log?.('warn', 'Dropped a malformed social-login result')
      }
      win.addEventListener('message', onMessage)
      const poll = setInterval(() => {
        if (settled) return
        if (popup.closed) {
          settled = true
          sendBack({ type: 'frame.socialCancelled', reason: 'closed' })
          return
        }
        const back = navigated ? returnedUri(popup, win.location.origin) : undefined
        if (back) finish(back)
      }, options.pollMs ?? 500)
      receive((command) => {
        if (command.type !== 'popup.navigate' || settled) return
        // Only an http(s) address: never a script URL in a window this page opened.
        if (!isHttpUrl(command.uri)) {
          options.log?.('warn', 'Refused to send the social-login popup to a non-http address')
          return
        }
        popup.location.href = command.uri
        navigated = true
      })
      return () => {
        settled = true
        clearInterval(poll)
        win.removeEventListener('message', onMessage)
        if (!popup.closed) popup.close()
      }
    },
  )
}

/**
 * The popup's address once it is back on the app's origin; `undefined` while it is elsewhere (reading a
 * cross-origin address throws) or still blank before the navigation commits.
 */
function returnedUri(popup: Window, appOrigin: string): string | undefined {
  try {
    const href = popup.location.href
    if (!isHttpUrl(href) || new URL(href).origin !== appOrigin) return undefined
    return href
  } catch {
    return undefined
  }
}

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol)
  } catch {
    return false
  }
}
