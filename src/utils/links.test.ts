import { describe, expect, it } from 'vitest'
import { buildCatalogue, HOSTILE_WALLET_IDS } from '../../sandbox/api/catalogue'
import { isOsHandlerScheme, MAX_LINK_LENGTH, safeDeepLink, safeHttpUrl, safeText } from './links'
import { walletLinkWithUri } from './walletLinks'

/** Every way we know to spell a script or document link; none may come out. */
const SCRIPT_LINKS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'JAVASCRIPT:alert(1)',
  ' javascript:alert(3)',
  '\njavascript:alert(1)',
  '\u0000javascript:alert(1)',
  '\u0001\u001fjavascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\r\nscript:alert(1)',
  'jav\u0000ascript:alert(1)',
  '\u00a0javascript:alert(1)',
  'javascript:alert(1)//',
  'javascript://%0aalert(1)',
  'javascript&colon;alert(1)',
  'javascript&#58;alert(1)',
  '&#106;avascript:alert(1)',
  'jav&#x09;ascript:alert(1)',
  'javascript%3Aalert(1)',
  'ｊａｖａｓｃｒｉｐｔ:alert(1)',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'livescript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgyKTwvc2NyaXB0Pg==',
  'DATA:text/html,x',
  ' data:image/svg+xml,x',
  'file:///etc/passwd',
  'FILE://c:/windows',
  'blob:https://app.example/0b1c',
  'about:blank',
  'chrome://settings',
  'chrome-extension://abc/page.html',
  'view-source:https://app.example',
  'filesystem:https://app.example/temporary/x',
]

/**
 * Links to the operating system's own handlers (issue 13 item 5): each opens a search, a share, a file, a
 * settings page or an installer on the visitor's machine, never a wallet. All in the `name://` form a wallet's
 * scheme has, so only the list of OS handlers stops them.
 */
const OS_HANDLER_LINKS = [
  'search-ms://query=invoice&crumb=location:\\\\evil.example\\share',
  'search-ms:query=x&crumb=location:%5C%5Cevil.example%5Cs',
  'SEARCH-MS://query=x',
  'search://query=x',
  'smb://evil.example/share/payload.exe',
  'SMB://evil.example/share',
  'cifs://evil.example/share',
  'nfs://evil.example/export',
  'afp://evil.example/share',
  'webdav://evil.example/share',
  'dav://evil.example/share',
  'ftp://evil.example/x',
  'sftp://evil.example/x',
  'ssh://evil.example',
  'telnet://evil.example',
  'rdp://full%20address=s:evil.example',
  'vnc://evil.example',
  'ldap://evil.example/o=x',
  'file://evil.example/share/x.exe',
  'shell://startup',
  'ms-msdt://id%20PCWDiagnostic',
  'ms-settings://privacy',
  'ms-officecmd://x',
  'ms-word://ofe|u|https://evil.example/x.docx',
  'ms-excel://x',
  'ms-appinstaller://?source=https://evil.example/x.msix',
  'MS-Settings://x',
  'mk://@MSITStore:evil',
  'its://evil.example/x.chm',
  'mhtml://evil.example/x',
  'hcp://services/search?query=x',
  'help://x',
  'res://x.dll/1',
  'microsoft-edge://https://evil.example',
  'x-apple-systempreferences://com.apple.preference',
  'x-apple.systempreferences://x',
  'itms-services://?action=download-manifest&url=https://evil.example/x.plist',
  'itms-apps://x',
  'shortcuts://run-shortcut?name=x',
  'workflow://x',
  'applescript://x',
  'facetime://evil@example',
  'tel://123',
  'sms://123',
  'mailto://a@evil.example',
  'steam://run/1',
  'vscode://file/etc/passwd',
  'jar://evil.example!/x',
  'intent://wc#Intent;scheme=wc;end',
  'android-app://com.evil/x',
  'ws://evil.example',
  'wss://evil.example',
  'gopher://evil.example',
]

/**
 * App launchers a wallet listing has no business opening (guards OS_HANDLERS_BY_KIND in links.ts): the six the
 * security review found open (Java Web Start, Zoom, Teams, Telegram, Sourcetree) and their kind. Each passed
 * before, being of the `name://` form a wallet's scheme has.
 */
const APP_LAUNCHER_LINKS = [
  'jnlp://evil.example/app.jnlp',
  'jnlps://evil.example/app.jnlp',
  'zoommtg://zoom.us/join?confno=1&pwd=x',
  'zoomus://zoom.us/join?confno=1',
  'msteams://teams.microsoft.com/l/meetup-join/x',
  'tg://resolve?domain=evil',
  'sourcetree://cloneRepo?type=custom&cloneUrl=ssh://evil.example/x',
  'github-windows://openRepo/https://evil.example/x',
  'x-github-client://openRepo/https://evil.example/x',
  'git://evil.example/x',
  'vscode-insiders://file/etc/passwd',
  'vscode-remote://ssh-remote+evil/x',
  'vscodium://x',
  'jetbrains://idea/checkout/git?checkout.repo=x',
  'x-man-page://x',
  'whatsapp://send?text=x',
  'slack://open',
  'discord://x',
  'sip://evil@example',
  'magnet://?xt=urn:btih:x',
  'webcal://evil.example/cal.ics',
  'com.epicgames.launcher://apps/x?action=launch',
  'ms-teams://x',
]

describe('safeDeepLink', () => {
  it.each(SCRIPT_LINKS)('refuses %j', (link) => {
    expect(safeDeepLink(link)).toBeUndefined()
  })

  it.each(OS_HANDLER_LINKS)('refuses the OS handler link %j', (link) => {
    expect(safeDeepLink(link)).toBeUndefined()
    expect(safeDeepLink(` ${link.toUpperCase()}`)).toBeUndefined()
    expect(isOsHandlerScheme(link.slice(0, link.indexOf(':')))).toBe(true)
  })

  it.each(APP_LAUNCHER_LINKS)('refuses the app launcher link %j', (link) => {
    expect(safeDeepLink(link)).toBeUndefined()
    expect(safeDeepLink(` ${link.toUpperCase()}`)).toBeUndefined()
    expect(walletLinkWithUri(link, 'wc:ab@2')).toBeUndefined()
  })

  it("keeps every wallet's own link of the sandbox's listing (the hostile entries aside)", () => {
    const hostile = new Set<string>(Object.values(HOSTILE_WALLET_IDS))
    const links = buildCatalogue()
      .filter((wallet) => !hostile.has(wallet.id))
      .flatMap((wallet) => [wallet.mobile_link, wallet.desktop_link])
      .filter((link): link is string => link !== null)
    expect(links.length).toBeGreaterThan(50)
    for (const link of links) expect(safeDeepLink(link), link).toBe(link)
  })

  it('keeps custom wallet schemes of the form name://, lower-casing the scheme only', () => {
    expect(safeDeepLink('metamask://wc?uri=wc%3Aabc%402')).toBe('metamask://wc?uri=wc%3Aabc%402')
    expect(safeDeepLink('MetaMask://Path/Case')).toBe('metamask://Path/Case')
    expect(safeDeepLink('zerion-wallet+x.y-z://')).toBe('zerion-wallet+x.y-z://')
    expect(safeDeepLink('rainbow://')).toBe('rainbow://')
    expect(safeDeepLink('trust://wc')).toBe('trust://wc')
    // Wallet names that merely start like an OS handler are wallets.
    expect(safeDeepLink('searchwallet://')).toBe('searchwallet://')
    expect(safeDeepLink('smbwallet://')).toBe('smbwallet://')
    expect(safeDeepLink('msafe://')).toBe('msafe://')
    expect(safeDeepLink('tgwallet://')).toBe('tgwallet://')
    expect(safeDeepLink('zoomwallet://')).toBe('zoomwallet://')
    expect(safeDeepLink('uniswap://')).toBe('uniswap://')
    expect(safeDeepLink('okex://main/wc?uri=x')).toBe('okex://main/wc?uri=x')
    expect(safeDeepLink('cbwallet://wc')).toBe('cbwallet://wc')
  })

  it('refuses a custom scheme that is not of the form name://', () => {
    expect(safeDeepLink('rainbow:')).toBeUndefined()
    expect(safeDeepLink('rainbow:wc?uri=x')).toBeUndefined()
    expect(safeDeepLink('rainbow:/wc')).toBeUndefined()
    expect(safeDeepLink(`${'a'.repeat(65)}://`)).toBeUndefined()
  })

  it('keeps https links, normalised by the URL parser; http only on the loopback host (the sandbox)', () => {
    expect(safeDeepLink('https://app.wallet.example/wc')).toBe('https://app.wallet.example/wc')
    expect(safeDeepLink('HTTPS://App.Example')).toBe('https://app.example/')
    expect(safeDeepLink('  https://app.example/\n')).toBe('https://app.example/')
    expect(safeDeepLink('http://127.0.0.1:5173/wc')).toBe('http://127.0.0.1:5173/wc')
    expect(safeDeepLink('http://localhost:5173/wc')).toBe('http://localhost:5173/wc')
    expect(safeDeepLink('http://[::1]:5173/')).toBe('http://[::1]:5173/')
    expect(safeDeepLink('http://wallet.example/wc')).toBeUndefined()
    expect(safeDeepLink('http://127.0.0.1.evil.example/')).toBeUndefined()
    expect(safeDeepLink('http://localhost.evil.example/')).toBeUndefined()
  })

  it('refuses what is not a link', () => {
    for (const value of [
      undefined,
      null,
      42,
      {},
      ['metamask://'],
      '',
      '   ',
      '\t\n',
      'metamask',
      '//x.example',
    ])
      expect(safeDeepLink(value)).toBeUndefined()
    expect(safeDeepLink('1password://x')).toBeUndefined() // a scheme starts with a letter
    expect(safeDeepLink('metamask ://x')).toBeUndefined()
    expect(safeDeepLink('metamask://x y')).toBeUndefined()
    expect(safeDeepLink('metamask://"><script>')).toBeUndefined()
    expect(safeDeepLink("metamask://x'onclick")).toBeUndefined()
    expect(safeDeepLink('metamask://x\u2028y')).toBeUndefined()
    expect(safeDeepLink('metamask://x\u0085y')).toBeUndefined()
  })

  it('refuses over-long links', () => {
    const long = `metamask://${'a'.repeat(MAX_LINK_LENGTH)}`
    expect(safeDeepLink(long)).toBeUndefined()
    expect(safeDeepLink(`metamask://${'a'.repeat(MAX_LINK_LENGTH - 20)}`)).toBeDefined()
    expect(safeDeepLink(`${' '.repeat(1_000_000)}metamask://`)).toBeUndefined()
  })

  it('refuses http links with credentials', () => {
    expect(safeDeepLink('https://wallet.example@evil.example/')).toBeUndefined()
  })
})

describe('safeHttpUrl', () => {
  it.each(SCRIPT_LINKS)('refuses %j', (link) => {
    expect(safeHttpUrl(link)).toBeUndefined()
  })

  it('answers http and https links as the URL parser serialises them', () => {
    expect(safeHttpUrl('https://app.example')).toBe('https://app.example/')
    expect(safeHttpUrl('http://127.0.0.1:5173/wc?x=1#y')).toBe('http://127.0.0.1:5173/wc?x=1#y')
    expect(safeHttpUrl('\t https://app.example/a\tb \n')).toBe('https://app.example/ab')
    expect(safeHttpUrl('https://app.example/%3Cscript%3E')).toBe('https://app.example/%3Cscript%3E')
  })

  it('refuses custom schemes, relative links and credentials', () => {
    expect(safeHttpUrl('metamask://x')).toBeUndefined()
    expect(safeHttpUrl('ftp://files.example/')).toBeUndefined()
    expect(safeHttpUrl('ws://relay.example')).toBeUndefined()
    expect(safeHttpUrl('/relative/path')).toBeUndefined()
    expect(safeHttpUrl('//app.example/')).toBeUndefined()
    expect(safeHttpUrl('https://user:secret@app.example/')).toBeUndefined()
    expect(safeHttpUrl('https://user@app.example/')).toBeUndefined()
    expect(safeHttpUrl('https://:pw@app.example/')).toBeUndefined()
    expect(safeHttpUrl('https:\\\\evil.example')).toBeUndefined()
    expect(safeHttpUrl('https://')).toBeUndefined()
    expect(safeHttpUrl('https://a b.example')).toBeUndefined()
    expect(safeHttpUrl(null)).toBeUndefined()
    expect(safeHttpUrl(new URL('https://app.example/'))).toBeUndefined()
  })
})

describe('safeText', () => {
  it('keeps ordinary names, trimmed and with whitespace collapsed', () => {
    expect(safeText('Rainbow', 40)).toBe('Rainbow')
    expect(safeText('  Rainbow \n\t Wallet  ', 40)).toBe('Rainbow Wallet')
    expect(safeText('Zerion 🦊 ‍👩‍💻', 40)).toBe('Zerion 🦊 ‍👩‍💻')
  })

  it('returns HTML as the literal text it is (React renders it as text)', () => {
    expect(safeText('<img src=x onerror=alert(1)>Evil', 100)).toBe('<img src=x onerror=alert(1)>Evil')
    expect(safeText('&lt;b&gt;', 100)).toBe('&lt;b&gt;')
  })

  it('removes control, bidi and invisible characters', () => {
    expect(safeText('Meta\u0000Mask\u0007\u007f\u0085', 40)).toBe('MetaMask')
    expect(safeText('Wallet\u202Eniarb', 40)).toBe('Walletniarb')
    expect(safeText('\u2066Safe\u2069\u200b\ufeff', 40)).toBe('Safe')
    expect(safeText('a\u2028b', 40)).toBe('a b')
  })

  // Guards INVISIBLE in links.ts: a name from an EIP-6963 announcement or an injected provider (any page script
  // can announce one) that reads backwards, hides characters, or carries half of a surrogate pair.
  it('removes every bidi embedding, override, isolate and mark', () => {
    const bidi = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e']
    for (const mark of [...bidi, '\u2066', '\u2067', '\u2068', '\u2069']) {
      expect(safeText(`Meta${mark}Mask`, 40), JSON.stringify(mark)).toBe('MetaMask')
    }
    expect(safeText('\u202eksaMateM\u202c', 40)).toBe('ksaMateM')
    expect(safeText('Pay\u00adPal\u2060\u2063', 40)).toBe('PayPal')
  })

  it('removes lone surrogates, keeps pairs, and cuts between code points', () => {
    expect(safeText('Fox\ud83e', 40)).toBe('Fox')
    expect(safeText('\udd8aFox', 40)).toBe('Fox')
    expect(safeText('Fo\udd8a\ud83ex', 40)).toBe('Fox')
    expect(safeText('Fox \ud83e\udd8a', 40)).toBe('Fox 🦊')
    const cut = safeText('🦊'.repeat(60), 10)
    expect(cut).toBe(`${'🦊'.repeat(9)}…`)
    expect(/[\ud800-\udfff]/u.test(cut)).toBe(false)
    for (const text of [safeText('\ud800', 5), safeText('\udfff\ud800', 5)]) expect(text).toBe('')
  })

  it('truncates to maxLength code points with an ellipsis', () => {
    const long = `Wallet${'Extraordinarily'.repeat(20)}`
    const cut = safeText(long, 40)
    expect(Array.from(cut)).toHaveLength(40)
    expect(cut.endsWith('…')).toBe(true)
    expect(cut.startsWith('WalletExtraordinarily')).toBe(true)
    expect(safeText('exactly ten', 11)).toBe('exactly ten')
    expect(safeText('🦊🦊🦊🦊🦊', 3)).toBe('🦊🦊…')
    expect(safeText('ab cd', 4)).toBe('ab…')
    expect(safeText('x'.repeat(5_000_000), 10)).toBe(`${'x'.repeat(9)}…`)
  })

  it('answers an empty string for anything but a string', () => {
    for (const value of [undefined, null, 1, true, {}, ['a'], Symbol('x')])
      expect(safeText(value, 10)).toBe('')
    expect(safeText('name', 0)).toBe('')
    expect(safeText('\u0000\u200b  ', 10)).toBe('')
  })
})

describe('walletLinkWithUri', () => {
  const uri = 'wc:7f6e5d4c@2?relay-protocol=irn&symKey=ab12&expiryTimestamp=1700000000'
  const encoded = encodeURIComponent(uri)

  it("a wallet's own scheme becomes WalletConnect's deep link with the URI encoded", () => {
    expect(walletLinkWithUri('metamask://', uri)).toBe(`metamask://wc?uri=${encoded}`)
    expect(walletLinkWithUri('rainbow:/', uri)).toBeUndefined()
    expect(walletLinkWithUri('trust://app', uri)).toBe(`trust://app/wc?uri=${encoded}`)
    expect(walletLinkWithUri('Zerion://?from=listing', uri)).toBe(`zerion://wc?uri=${encoded}`)
  })

  it('a universal link gets `wc` as its last path segment and keeps nothing of its own query', () => {
    expect(walletLinkWithUri('https://metamask.app.link', uri)).toBe(
      `https://metamask.app.link/wc?uri=${encoded}`,
    )
    expect(walletLinkWithUri('https://link.example/app/?ref=x#frag', uri)).toBe(
      `https://link.example/app/wc?uri=${encoded}`,
    )
    expect(walletLinkWithUri('http://127.0.0.1:5173/wc/', uri)).toBe(
      `http://127.0.0.1:5173/wc/wc?uri=${encoded}`,
    )
  })

  it('the URI cannot break out of its parameter', () => {
    const hostile = 'wc:x@2?symKey=1&uri=https://evil.example#<script>'
    const link = walletLinkWithUri('https://metamask.app.link', hostile)!
    const url = new URL(link)
    expect([...url.searchParams.keys()]).toEqual(['uri'])
    expect(url.searchParams.get('uri')).toBe(hostile)
    expect(url.hash).toBe('')
  })

  it('a listing link that fails the check is never turned into one', () => {
    for (const bad of [
      'javascript:alert(1)//',
      'data:text/html,<script>alert(1)</script>',
      'search-ms://query=x',
      'intent://scan#Intent;end',
      'http://evil.example/',
      'https://user:pass@wallet.example/',
      42,
      undefined,
    ]) {
      expect(walletLinkWithUri(bad, uri)).toBeUndefined()
    }
  })
})
