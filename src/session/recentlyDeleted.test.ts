import { describe, expect, it } from 'vitest'
import { RECENTLY_DELETED_LIMIT } from '../constants'
import { createRecentlyDeleted, rememberDeleted, wasRecentlyDeleted } from './recentlyDeleted'

describe('recently deleted map', () => {
  it('remembers topics and ids with their kind', () => {
    let map = createRecentlyDeleted()
    map = rememberDeleted(map, 'topic', 'session')
    map = rememberDeleted(map, 42, 'request')
    expect(wasRecentlyDeleted(map, 'topic')).toBe('session')
    expect(wasRecentlyDeleted(map, '42')).toBe('request')
    expect(wasRecentlyDeleted(map, 42)).toBe('request')
    expect(wasRecentlyDeleted(map, 'other')).toBeUndefined()
    expect(map.limit).toBe(RECENTLY_DELETED_LIMIT)
  })

  it('is trimmed by half, oldest first, when full', () => {
    let map = createRecentlyDeleted(10)
    for (let i = 1; i <= 9; i++) map = rememberDeleted(map, i, 'request')
    expect(map.entries).toHaveLength(9)
    map = rememberDeleted(map, 10, 'request')
    expect(map.entries.map(([key]) => key)).toEqual(['6', '7', '8', '9', '10'])
    expect(wasRecentlyDeleted(map, 5)).toBeUndefined()
    expect(wasRecentlyDeleted(map, 6)).toBe('request')
  })

  it('stays within the limit however much is deleted', () => {
    let map = createRecentlyDeleted()
    for (let i = 0; i < 1_000; i++) map = rememberDeleted(map, `t${i}`, 'session')
    expect(map.entries.length).toBeLessThan(RECENTLY_DELETED_LIMIT)
    expect(wasRecentlyDeleted(map, 't999')).toBe('session')
  })

  it('keeps one entry per key, moved to the newest place', () => {
    let map = createRecentlyDeleted()
    map = rememberDeleted(map, 'a', 'session')
    map = rememberDeleted(map, 'b', 'session')
    map = rememberDeleted(map, 'a', 'pairing')
    expect(map.entries).toEqual([
      ['b', 'session'],
      ['a', 'pairing'],
    ])
  })

  it('is immutable and JSON-safe', () => {
    const empty = createRecentlyDeleted()
    const one = rememberDeleted(empty, 'a', 'proposal')
    expect(empty.entries).toEqual([])
    expect(JSON.parse(JSON.stringify(one))).toEqual(one)
    expect(() => createRecentlyDeleted(1)).toThrow(RangeError)
  })
})
