import { createHash } from 'node:crypto'

/** SHA-256 of a seed as 64 hex characters: the shape of a real listing wallet id. */
export function hexId(seed: string): string {
  return createHash('sha256').update(seed).digest('hex')
}

/** A UUID-shaped id derived from a seed: the shape of the provider's image ids. */
export function uuidId(seed: string): string {
  const h = hexId(seed)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 30)}00`
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch] ?? ch)
}

/** Up to two letters or digits from a label, upper-cased ("Walletstate Dev Wallet" -> "WD"). */
function initials(label: string): string {
  const words = label.match(/[\p{L}\p{N}]+/gu) ?? []
  const letters = words.length >= 2 ? `${words[0]![0]}${words[1]![0]}` : (words[0]?.slice(0, 2) ?? '?')
  return letters.toUpperCase()
}

/**
 * A small deterministic SVG badge for an image id: two colours from the id's hash and the label's initials.
 * The same id always gives the same bytes, so tests and caches can rely on it.
 *
 * @example
 * badgeSvg('ba0ba0cd-...', 'Ethereum', 'circle')
 */
export function badgeSvg(id: string, label: string, shape: 'rounded' | 'circle' = 'rounded'): string {
  const h = hexId(`image/${id}`)
  const hue1 = Number.parseInt(h.slice(0, 4), 16) % 360
  const hue2 = (hue1 + 40 + (Number.parseInt(h.slice(4, 6), 16) % 80)) % 360
  const text = escapeXml(initials(label))
  const frame =
    shape === 'circle'
      ? '<circle cx="48" cy="48" r="48" fill="url(#g)"/>'
      : '<rect width="96" height="96" rx="24" fill="url(#g)"/>'
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">',
    '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">',
    `<stop offset="0" stop-color="hsl(${hue1} 70% 52%)"/><stop offset="1" stop-color="hsl(${hue2} 70% 38%)"/>`,
    '</linearGradient></defs>',
    frame,
    `<text x="48" y="60" text-anchor="middle" font-family="system-ui,sans-serif" font-size="34" font-weight="700" fill="#fff">${text}</text>`,
    '</svg>',
  ].join('')
}

/** Response headers for a served image. */
export const SVG_HEADERS: Record<string, string> = {
  'Content-Type': 'image/svg+xml',
  'Cache-Control': 'public, max-age=3600',
  // The SVG is served same-origin to nobody but <img>; refuse scripts should anyone open it directly.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'X-Content-Type-Options': 'nosniff',
}
