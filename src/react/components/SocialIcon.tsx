import type { SocialProvider } from '../../config'

/*
 * The social providers' marks, drawn for the kit on a 24 × 24 grid: simple shapes in each brand's colours, the
 * monochrome brands (X, GitHub, Apple) in the text colour so they read in both themes. They render on Connect
 * (the first click's code), so each is a path or two: a fill and its `d`, holes by the even-odd rule.
 */
const MARKS: Record<SocialProvider, readonly (readonly [fill: string, d: string])[]> = {
  google: [
    ['#4285F4', 'M12 10h9v2a9 9 0 0 1-2.6 6.4l-2.8-2.8A5 5 0 0 0 16.6 14H12z'],
    ['#34A853', 'M18.4 18.4A9 9 0 0 1 4.2 16.5l3.5-2a5 5 0 0 0 7.9 1z'],
    ['#FBBC05', 'M4.2 16.5a9 9 0 0 1 0-9l3.5 2a5 5 0 0 0 0 5z'],
    ['#EA4335', 'M4.2 7.5a9 9 0 0 1 14.2-1.9l-2.8 2.8A5 5 0 0 0 7.7 9.5z'],
  ],
  x: [
    [
      'currentColor',
      'M3 4h5.5L21 20h-5.5zm2.6 1.2 10.5 13.6h2.3L7.9 5.2zM18.6 4h1.8l-6.8 7.8-.8-1.1zM3.6 20l6.8-7.7.8 1.1L5.4 20z',
    ],
  ],
  discord: [
    [
      '#5865F2',
      'M19.3 5.6a16 16 0 0 0-4-1.2l-.5 1a15 15 0 0 0-5.6 0l-.5-1a16 16 0 0 0-4 1.2C2.2 9.4 1.5 13.1 1.9 16.8a16 16 0 0 0 4.9 2.5l1-1.6-1.6-.8.4-.3a11.4 11.4 0 0 0 10.8 0l.4.3-1.6.8 1 1.6a16 16 0 0 0 4.9-2.5c.5-4.3-.7-8-2.8-11.2zM8.8 14.6c-1 0-1.8-.9-1.8-2s.8-2 1.8-2 1.8.9 1.8 2-.8 2-1.8 2zm6.4 0c-1 0-1.8-.9-1.8-2s.8-2 1.8-2 1.8.9 1.8 2-.8 2-1.8 2z',
    ],
  ],
  farcaster: [
    ['#8A63D2', 'M6 2h12a4 4 0 0 1 4 4v12a4 4 0 0 1-4 4H6a4 4 0 0 1-4-4V6a4 4 0 0 1 4-4z'],
    ['#fff', 'M6.5 6.5h11v1.8h-.9V17h.6v1.2h-3.4V17h.6v-4a2.4 2.4 0 0 0-4.8 0v4h.6v1.2H6.8V17h.6V8.3h-.9z'],
  ],
  github: [
    [
      'currentColor',
      'M12 2a10 10 0 1 0 0 20 10 10 0 1 0 0-20zM9.5 21.7v-3.2c-2.4-.6-3.6-2.2-3.6-4.8 0-1.1.4-2 1-2.7-.2-.8-.2-1.8.2-2.8 1 0 1.9.5 2.6 1.1a8 8 0 0 1 4.6 0c.7-.6 1.6-1.1 2.6-1.1.4 1 .4 2 .2 2.8.6.7 1 1.6 1 2.7 0 2.6-1.2 4.2-3.6 4.8v3.2z',
    ],
  ],
  apple: [
    [
      'currentColor',
      'M12 8.2c-1.2-.8-2.4-1.1-3.6-1.1C5.5 7.1 4 9.6 4 12.6c0 3.6 2.3 8.3 4.6 8.3 1.2 0 1.8-.6 3.4-.6s2.2.6 3.4.6c1.6 0 3-2.2 3.8-4.4-1.6-.7-2.6-2.2-2.6-3.9 0-1.5.8-2.8 2-3.5-.9-1.3-2.3-2-3.9-2-1.2 0-2.2.4-2.7.7zm.2-1.4c-.1-1.9 1.3-3.6 3.3-3.8.1 2-1.4 3.6-3.3 3.8z',
    ],
  ],
  facebook: [
    ['#0866FF', 'M12 2a10 10 0 1 0 0 20 10 10 0 1 0 0-20z'],
    [
      '#fff',
      'M13.4 21.9v-7.2h2.5l.4-2.9h-2.9V9.9c0-.8.3-1.4 1.5-1.4h1.5V5.9a18 18 0 0 0-2.2-.1c-2.2 0-3.7 1.3-3.7 3.8v2.2H8v2.9h2.5v7.2z',
    ],
  ],
}

/**
 * A social provider's mark, decorative (the button or view names the provider).
 *
 * @example
 * <SocialIcon provider="google" className="ws-social-glyph" />
 */
export function SocialIcon({ provider, className }: { provider: SocialProvider; className: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {MARKS[provider].map(([fill, d]) => (
        <path key={d} fill={fill} fillRule="evenodd" d={d} />
      ))}
    </svg>
  )
}
