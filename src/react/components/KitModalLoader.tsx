import { useState } from 'react'
import { selectStatus } from '../../machines/connection'
import { selectIsOpen } from '../../machines/modal'
import { useSelector } from '../actor'
import { useConnectionActor, useModalActor, useToastActor } from '../hooks'
import { KitModal } from './KitModal'

/**
 * Renders the modal once it is first needed (opened, a toast shown, a visitor connected) and keeps it. Its
 * shell and Connect are in the first-click code (issue 14: nothing is fetched between the press and Connect on
 * screen); the other views load with their own chunks.
 */
export function KitModalLoader() {
  const isOpen = useSelector(useModalActor(), selectIsOpen)
  const toasting = useSelector(useToastActor(), (s) => s.context.current !== undefined)
  const connected = useSelector(useConnectionActor(), (s) => selectStatus(s) === 'connected')
  const needed = isOpen || toasting || connected
  const [kept, setKept] = useState(needed)
  if (needed && !kept) setKept(true)
  return kept || needed ? <KitModal /> : null
}
