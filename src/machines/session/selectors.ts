import { own } from '../../session/own'
import type { SessionClientContext } from './types'

/** Selectors over the session client's snapshot. */

/** The pairing URI to show (app): the last one this client's connect produced. */
export const selectPairingUri = (snapshot: { context: SessionClientContext }) => snapshot.context.pairingUri

/** The request the wallet decides on now, if any. */
export const selectActiveRequest = (snapshot: { context: SessionClientContext }) =>
  snapshot.context.activeRequest === undefined
    ? undefined
    : own(snapshot.context.requests, snapshot.context.activeRequest)

/** Sessions, newest last. */
export const selectSessions = (snapshot: { context: SessionClientContext }) =>
  Object.values(snapshot.context.sessions)

/** The last command or report refused, with its SPEC §8 error. */
export const selectLastError = (snapshot: { context: SessionClientContext }) => snapshot.context.lastError
