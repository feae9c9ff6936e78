import { beforeAll, describe, expect, it } from 'vitest'
import { KIT_LOCALES } from '../../config'
import * as api from '../../errors/api'
import * as base from '../../errors/base'
import * as connection from '../../errors/connection'
import * as frame from '../../errors/frame'
import * as names from '../../errors/names'
import * as send from '../../errors/send'
import * as signIn from '../../errors/signIn'
import * as solana from '../../errors/solana'
import * as swap from '../../errors/swap'
import { NAME_LEGACY_RULE_MESSAGE, NAME_LENGTH_RULE_MESSAGE, NAME_RULE_MESSAGE } from '../../machines/names'
import { createTranslate, errorText, loadMachineEnglish, localizeText } from '../i18n'
import ar from './ar.json'
import BUTTON from './connectButton.json'
import de from './de.json'
import enFirst from './en.json'
import enMachine from './en.machine.json'
import enViews from './en.views.json'
import es from './es.json'
import fr from './fr.json'
import ja from './ja.json'
import zh from './zh.json'

// English is the source of truth (issue 18): every other catalog has exactly its keys, with the same placeholders.
// English comes in three files: Connect's and the modal's texts (with the kit), the other views' (with them) and
// the machines' (loaded with another locale).
const en = { ...enFirst, ...enViews, ...enMachine }
const CATALOGS: Record<string, Record<string, string>> = { ar, de, es, fr, ja, zh }
const TEMPLATED = new Set(['EmailThrottledError', 'NameRegistrationError'])
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('catalogs', () => {
  it('the English files share no key', () => {
    const keys = [...Object.keys(enFirst), ...Object.keys(enViews), ...Object.keys(enMachine)]
    expect(keys.length).toBe(new Set(keys).size)
  })

  it('the host button has its label in every locale (its own small catalog, shown before the modal loads)', () => {
    expect(Object.keys(BUTTON).sort()).toEqual([...KIT_LOCALES].sort())
    for (const label of Object.values(BUTTON)) expect(label.trim()).not.toBe('')
  })

  it('one catalog per locale besides English', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual(KIT_LOCALES.filter((l) => l !== 'en').sort())
  })

  for (const [locale, catalog] of Object.entries(CATALOGS)) {
    it(`${locale}: has every English key`, () => {
      expect(Object.keys(en).filter((key) => !(key in catalog))).toEqual([])
    })
    it(`${locale}: has no key English does not have`, () => {
      expect(Object.keys(catalog).filter((key) => !(key in en))).toEqual([])
    })
    it(`${locale}: the same placeholders as English, and no empty text`, () => {
      const mismatched = Object.entries(en)
        .filter(
          ([key, text]) => key in catalog && placeholders(catalog[key]!).join() !== placeholders(text).join(),
        )
        .map(([key]) => key)
      expect(mismatched).toEqual([])
      expect(Object.keys(catalog).filter((key) => catalog[key]!.trim() === '')).toEqual([])
    })
  }

  it('error.<Name>: the English text is the error’s shortMessage (src/errors), so the UI finds it', () => {
    const modules = [base, api, connection, frame, names, send, signIn, solana, swap]
    const checked: string[] = []
    for (const module of modules)
      for (const [name, value] of Object.entries(module)) {
        const key = `error.${name}` as keyof typeof en
        // (Errors whose text has a value in it are checked by their text below.)
        if (typeof value !== 'function' || !(key in en) || TEMPLATED.has(name)) continue
        const error = new (value as new (p: object) => base.BaseError)({})
        expect([name, error.name, en[key]]).toEqual([name, name, error.shortMessage])
        checked.push(name)
      }
    expect(checked.length).toBeGreaterThan(60)
    for (const [call, text] of Object.entries(api.DATA_API_ERROR_MESSAGES))
      expect(en[`error.DataApiError.${call}` as keyof typeof en]).toBe(text)
    for (const alert of Object.values(base.ALERTS)) {
      expect(en[`alert.${alert.code}` as keyof typeof en]).toBe(alert.shortMessage)
      expect(en[`alert.${alert.code}.long` as keyof typeof en]).toBe(alert.longMessage)
    }
  })
})

describe('look-ups', () => {
  const t = createTranslate(de)
  beforeAll(async () => {
    // English needs no translation: what the machines wrote is shown as it is until another locale was chosen.
    expect(localizeText(createTranslate({}), 'Sent 1.5 ETH')).toBe('Sent 1.5 ETH')
    await loadMachineEnglish()
  })

  it('default: a key in the catalog shown, its placeholders filled', () => {
    expect(t('wc.scan', { wallet: 'Rainbow' })).toBe(
      'Scanne diesen QR-Code mit Rainbow oder öffne ihn auf diesem Gerät.',
    )
    expect(createTranslate({})('common.tryAgain')).toBe('Try again')
    expect(createTranslate({})('error.InvalidOtpError')).toBe('Invalid code')
  })

  it('errorText: by the error’s name when the text is that error’s English one; else its English text as it came', () => {
    expect(errorText(t, new connection.UserRejectedError())).toBe('Verbindung in der Wallet abgelehnt.')
    expect(errorText(t, { name: 'DataApiError', message: 'Failed to fetch NFTs' })).toBe(
      'NFTs konnten nicht abgerufen werden',
    )
    expect(errorText(t, new frame.EmailThrottledError(12))).toBe('Bitte versuche es in 12 Sekunden erneut')
    expect(errorText(t, { name: 'FrameReplyError', message: 'The wallet says no' })).toBe(
      'The wallet says no',
    )
  })

  it('names (issue 20): the errors and the SPEC §5 rule the names machine writes, in the catalog’s words', () => {
    expect(new names.NameRegistrationError({ name: 'alice.reown.id' }).shortMessage).toBe(
      'Error registering name alice.reown.id',
    )
    expect(localizeText(t, 'Error registering name alice.reown.id')).toBe(
      'Fehler beim Registrieren des Namens alice.reown.id',
    )
    expect(localizeText(t, new names.NameSuggestionsError().shortMessage)).toBe(
      'Fehler beim Abrufen von Namensvorschlägen',
    )
    expect(localizeText(t, NAME_RULE_MESSAGE)).toBe(
      'Nur Buchstaben, Ziffern und Bindestriche, mindestens 4 Zeichen',
    )
    expect(localizeText(t, NAME_LENGTH_RULE_MESSAGE)).toBe('Höchstens 63 Zeichen')
    expect(localizeText(t, NAME_LEGACY_RULE_MESSAGE)).toBe(
      'Namen mit der Endung .wcn.id können nicht mehr registriert werden: wähle einen .reown.id-Namen',
    )
  })

  it('localizeText: a machine’s English text with values (a toast) in the catalog’s words', () => {
    expect(localizeText(t, 'Sent 1.5 ETH')).toBe('1.5 ETH gesendet')
    expect(localizeText(t, 'Swapped 1 USDC for 0.99 USDT')).toBe('1 USDC gegen 0.99 USDT getauscht')
    expect(localizeText(t, 'Approve in your wallet…')).toBe('Genehmige in deiner Wallet …')
    expect(localizeText(t, 'Something no catalog has')).toBe('Something no catalog has')
  })
})
