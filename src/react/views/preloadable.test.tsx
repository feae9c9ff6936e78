// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { Suspense } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { preloadable } from './preloadable'

afterEach(cleanup)

const View = () => <p>the view</p>

function counted() {
  let imports = 0
  const view = preloadable(async () => {
    imports += 1
    return { default: View }
  })
  return { view, imports: () => imports }
}

describe('preloadable', () => {
  it('behavior: fetched ahead, the view renders in the first commit, without its fallback', async () => {
    const { view, imports } = counted()
    await view.preload()
    const { component: Component } = view
    render(
      <Suspense fallback={<p>loading</p>}>
        <Component />
      </Suspense>,
    )
    expect(screen.getByText('the view')).toBeTruthy()
    expect(screen.queryByText('loading')).toBeNull()
    expect(imports()).toBe(1)
  })

  it('default: not fetched ahead, the view suspends once and then renders', async () => {
    const { view, imports } = counted()
    const { component: Component } = view
    render(
      <Suspense fallback={<p>loading</p>}>
        <Component />
      </Suspense>,
    )
    expect(screen.getByText('loading')).toBeTruthy()
    await act(async () => {})
    expect(screen.getByText('the view')).toBeTruthy()
    expect(imports()).toBe(1)
  })

  it('behavior: concurrent preloads share one import; a failed import is tried again', async () => {
    let imports = 0
    const view = preloadable(async () => {
      imports += 1
      if (imports === 1) throw new Error('chunk failed')
      return { default: View }
    })
    await expect(Promise.all([view.preload(), view.preload()])).rejects.toThrow('chunk failed')
    expect(imports).toBe(1)
    await expect(view.preload()).resolves.toEqual({ default: View })
    expect(imports).toBe(2)
  })
})
