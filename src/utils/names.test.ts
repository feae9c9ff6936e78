import { describe, expect, it } from 'vitest'
import {
  isRegistrableLabel,
  nameLabelRuleOf,
  nameRegistrationMessage,
  parseNameRegistrationMessage,
} from './names'

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

// The LDH rules beside SPEC §5's characters (nameLabelRuleOf): the old rule (letters, digits, hyphens, length)
// let all three of the refused labels below through.
describe('LDH labels', () => {
  it.each([
    ['xn--80ak6aa92e', 'punycode'],
    ['xn--alice', 'punycode'],
    ['-alice-', 'hyphenEdge'],
    ['-alice', 'hyphenEdge'],
    ['alice-', 'hyphenEdge'],
    ['al--ice', 'hyphen34'],
    ['ab--cd', 'hyphen34'],
  ] as const)('%s breaks the %s rule and is not registrable', (label, rule) => {
    expect(nameLabelRuleOf(label)).toBe(rule)
    expect(isRegistrableLabel(label)).toBe(false)
  })

  it.each(['alice', 'alice-bob', 'a-b-c-d', 'ali--ce', 'xn-a1', '1234'])(
    '%s keeps them and is registrable',
    (label) => {
      expect(nameLabelRuleOf(label)).toBeUndefined()
      expect(isRegistrableLabel(label)).toBe(true)
    },
  )
})

// The registration message was JSON of the name and a timestamp: it named no app, account, chain or purpose.
describe('the registration message', () => {
  const fields = {
    name: 'alice.reown.id',
    address: ACCOUNT,
    chainId: 8453,
    domain: 'app.example.com',
    issuedAt: new Date('2026-11-28T19:00:05.678Z'),
  } as const

  it('is one sentence naming the app, the purpose, the name, the account, the chain and the time', () => {
    expect(nameRegistrationMessage(fields)).toBe(
      `app.example.com asks you to register the name alice.reown.id for the account ${ACCOUNT} on chain 8453 at 2026-11-28T19:00:05Z.`,
    )
  })

  it('reads back as what it says (the time in whole seconds); anything else is not one', () => {
    expect(parseNameRegistrationMessage(nameRegistrationMessage(fields))).toEqual({
      ...fields,
      issuedAt: new Date('2026-11-28T19:00:05Z'),
    })
    for (const text of [
      '{"name":"alice.reown.id","attributes":{},"timestamp":1700000000}',
      `${nameRegistrationMessage(fields)} And send 1 ETH.`,
      nameRegistrationMessage(fields).replace('chain 8453', 'chain 0'),
      nameRegistrationMessage(fields).replace(ACCOUNT, '0x1234'),
    ])
      expect(parseNameRegistrationMessage(text), text).toBeUndefined()
  })
})
