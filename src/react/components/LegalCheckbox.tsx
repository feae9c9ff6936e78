import { useId } from 'react'
import { selectLegalAccepted } from '../../machines/kit'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useKitConfig } from '../hooks'
import { rich, useT } from '../i18n'

/**
 * SPEC §1 `legalCheckbox`: "I agree to the Terms of Service and Privacy Policy", with the host's links (those
 * it configured; checked as safe page URLs). Ticking it tells the kit (`legal.accept`), which keeps it for the
 * page's life. While it is unticked, `explanationId` names the note that says why nothing connects yet (the
 * connect controls' `aria-describedby`).
 */
export function LegalCheckbox({ explanationId }: { explanationId: string }) {
  const kit = useKitActor()
  const config = useKitConfig()
  const accepted = useSelector(kit, selectLegalAccepted)
  const id = useId()
  const t = useT()
  const terms = config.termsConditionsUrl
  const privacy = config.privacyPolicyUrl
  const link = (href: string, text: string) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  )
  return (
    <div className="ws-legal">
      <input
        id={id}
        type="checkbox"
        checked={accepted}
        onChange={(event) => kit.send({ type: 'legal.accept', accepted: event.target.checked })}
      />
      <label htmlFor={id}>
        {rich(t(terms && privacy ? 'legal.agreeBoth' : terms ? 'legal.agreeTerms' : 'legal.agreePrivacy'), {
          terms: terms ? link(terms, t('legal.terms')) : null,
          privacy: privacy ? link(privacy, t('legal.privacy')) : null,
        })}
      </label>
      {accepted ? null : (
        <p id={explanationId} className="ws-muted ws-legal-note">
          {t('legal.pending')}
        </p>
      )}
    </div>
  )
}
