import { useId } from 'react'
import { selectLegalAccepted } from '../../machines/kit'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useKitConfig } from '../hooks'
import { rich, useT } from '../i18nViews'

/** Its styles ride with it (it is loaded only when the host turns it on), scoped to the kit's root like the rest. */
const LEGAL_CSS = `
[data-walletstate] .ws-legal {
  display: grid; grid-template-columns: auto 1fr; gap: 4px 8px; align-items: start; margin-bottom: 16px;
  font-size: 14px; line-height: 1.45;
}
[data-walletstate] .ws-legal input { margin: 3px 0 0; accent-color: var(--ws-accent); }
[data-walletstate] .ws-legal a { color: var(--ws-accent); }
[data-walletstate] .ws-legal-note { grid-column: 2; margin: 0; }
@media (max-width: 430px) {
  /* A checkbox is tapped by its label too: its row, label and box together, is the finger's target. */
  [data-walletstate] .ws-legal label { display: inline-flex; align-items: center; min-height: 44px; }
  [data-walletstate] .ws-legal { align-items: center; }
}
`

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
      <style>{LEGAL_CSS}</style>
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
