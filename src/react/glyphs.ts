/**
 * The modal's few non-ASCII glyphs, read from `\u` escapes in a JSON text: written as characters (or as escapes
 * or `String.fromCharCode`, which the host's minifier folds and prints as characters) they would make the host's
 * first-click script non-ASCII, which Chromium keeps as UTF-16, twice its size in memory (the consumer test
 * checks those scripts stay ASCII).
 */
export const [GLYPH_BACK, GLYPH_CLOSE, GLYPH_MORE] = JSON.parse('["\\u2190","\\u2715","\\u22ef"]') as [
  string,
  string,
  string,
]
