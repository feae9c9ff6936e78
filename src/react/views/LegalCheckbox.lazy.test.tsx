// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { offlineConfig } from '../../../test/support/offlineKit'
import { createKitMachine } from '../../kit/createKit'
import { ConnectButton } from '../components/ConnectButton'
import { KitRoot } from '../KitRoot'
import { preloadLegalCheckbox } from './Connect'

/**
 * The legal checkbox is a chunk of its own (a kit without `features.legalCheckbox` never fetches it); a kit with
 * it fetches it as KitRoot mounts, and Connect then shows it in its first render, its connect controls unavailable
 * and described by its note.
 */
const kit = createKitMachine(
  offlineConfig({
    projectId: 'legal',
    features: { legalCheckbox: true },
    termsConditionsUrl: 'https://walletstate.example/terms',
    privacyPolicyUrl: 'https://walletstate.example/privacy',
  }),
)

afterEach(cleanup)

describe('the legal checkbox, loaded with a kit that has it', () => {
  it('is on Connect in its first render once KitRoot has fetched it, every connect control waiting for it', async () => {
    render(
      <KitRoot machine={kit}>
        <ConnectButton />
      </KitRoot>,
    )
    // KitRoot asked for it as it mounted: the same module, fetched once.
    await preloadLegalCheckbox()
    fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }))
    const dialog = screen.getByRole('dialog')
    const checkbox = within(dialog).getByRole('checkbox', {
      name: 'I agree to the Terms of Service and Privacy Policy',
    })
    expect((checkbox as HTMLInputElement).checked).toBe(false)
    expect(within(dialog).getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(
      'https://walletstate.example/terms',
    )
    const walletConnect = within(dialog).getByRole('button', { name: /^WalletConnect/ })
    expect(walletConnect.getAttribute('aria-disabled')).toBe('true')
    const note = document.getElementById(walletConnect.getAttribute('aria-describedby')!)
    expect(note?.textContent).toBe('Agree to the Terms of Service and Privacy Policy to connect.')
    fireEvent.click(checkbox)
    expect(walletConnect.getAttribute('aria-disabled')).toBeNull()
  })
})
