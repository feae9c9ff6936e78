// @vitest-environment happy-dom
import { describe } from 'vitest'
import { readBlocks, writeBlocks } from './blocks'
import { runBlocks } from './run'

// Every ```tsx block of README.md runs here, in happy-dom, with an empty `<div id="root">` as the page's mount
// point (type-checked with the ts blocks in readme.test.ts).
const blocks = readBlocks().filter((b) => b.lang === 'tsx')
writeBlocks(blocks)

describe('README code blocks (tsx)', () => {
  runBlocks(blocks, {
    setup: () => {
      document.body.innerHTML = '<div id="root"></div>'
    },
  })
})
