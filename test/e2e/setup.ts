import { beforeEach } from 'vitest'
import { describeOpenPages } from './support.ts'

// Every e2e test: when it fails, what the open pages show is printed beside the failure (test/e2e/support.ts).
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    const shown = await describeOpenPages(task.name)
    if (shown) console.error(`[e2e] on screen when "${task.name}" failed:\n${shown}`)
  })
})
