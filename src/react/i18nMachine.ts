/*
 * Finding a machine's English text in the catalogs, for `localizeText`: only a page shown in another language than
 * English needs it, so it loads with the machines' English catalog (`loadMachineEnglish`), not with the kit.
 */

/** Machine texts (errors, toasts, progress) that the catalogs translate, found by their English text. */
const MACHINE_TEXT = /^(error|toast|machine)\./
/** A placeholder (`{name}`), as the catalogs write them. */
const PLACEHOLDER = /\{(\w+)\}/g

/**
 * The look-up of a machine's English text in the catalogs: each machine text's English, its placeholders made
 * patterns (`Sent {amount} {symbol}` matches "Sent 1 ETH"), translated with the values it matched.
 */
export function machineTextLocalizer<Key extends string>(
  english: Partial<Record<Key, string>>,
): (t: (key: Key, values: Record<string, string>) => string, text: string) => string {
  let templates: [RegExp, Key, string[]][] | undefined
  return (t, text) => {
    templates ??= (Object.keys(english) as Key[])
      .filter((key) => MACHINE_TEXT.test(key))
      .map((key) => {
        const names: string[] = []
        const source = english[key]!.split(PLACEHOLDER)
          .map((part, index) => {
            if (index % 2 === 0) return part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')
            names.push(part)
            return '(.+?)'
          })
          .join('')
        return [new RegExp(`^${source}$`), key, names]
      })
    for (const [pattern, key, names] of templates) {
      const match = pattern.exec(text)
      if (match) return t(key, Object.fromEntries(names.map((name, index) => [name, match[index + 1]!])))
    }
    return text
  }
}
