import { createContext, useContext } from 'react'
import { BaseError } from '../errors/base'
import type { KitActorRef } from '../machines/kit'

export const KitActorContext = createContext<KitActorRef | null>(null)

/** The running kit actor; throws outside `<KitRoot>`. */
export function useKitActor(): KitActorRef {
  const actor = useContext(KitActorContext)
  if (!actor) throw new BaseError('useKit must be used inside <KitRoot>')
  return actor
}
