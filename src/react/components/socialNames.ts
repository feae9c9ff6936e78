import type { SocialProvider } from '../../config'

/** How each social login is named on its button and in the views (also the buttons' accessible names). */
export const SOCIAL_NAMES: Record<SocialProvider, string> = {
  google: 'Google',
  x: 'X',
  discord: 'Discord',
  farcaster: 'Farcaster',
  github: 'GitHub',
  apple: 'Apple',
  facebook: 'Facebook',
}
