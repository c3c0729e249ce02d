import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEV_POW_SECRET, issueChallenge, leadingZeroBits, POW, powSecret, verifyProof } from './pow'
import { solveChallenge } from './pow-solver'

const SECRET = 'test-secret'
const IP = '203.0.113.7'
const NOW = Date.parse('2026-11-20T02:30:00Z')
// Easy challenges keep these tests fast where the difficulty itself is not under test.
const EASY = { minAcceptedDifficulty: 8 }

async function solved(difficulty = 8, ip = IP, now = NOW) {
  const body = await issueChallenge(SECRET, ip, difficulty, now, EASY)
  return { body, header: await solveChallenge(body.challenge, body.difficulty) }
}

/** A nonce whose hash misses the difficulty (most do). */
async function unsolvedHeader(challenge: string, difficulty: number) {
  for (let n = 0; ; n++) {
    const h = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${challenge}.x${n}`)))
    if (leadingZeroBits(h) < difficulty) return `${challenge}.x${n}`
  }
}

describe('leadingZeroBits', () => {
  it.each([
    [[], 0],
    [[0x80], 0],
    [[0x7f], 1],
    [[0x01], 7],
    [[0x00], 8],
    [[0x00, 0x00, 0x10], 19],
    [[0x00, 0x01, 0xff], 15],
    [[0, 0, 0, 0], 32],
  ])('%j → %i', (bytes, n) => {
    expect(leadingZeroBits(new Uint8Array(bytes))).toBe(n)
  })
})

describe('issueChallenge', () => {
  it('serves the default for difficulty 0, with a self-explanatory body', async () => {
    const body = await issueChallenge(SECRET, IP, 0, NOW)
    expect(body).toMatchObject({
      difficulty: POW.defaultDifficulty,
      min_difficulty: POW.minAcceptedDifficulty,
      raises_allowance: true,
      raises_to_per_minute: 60,
      expires_in: POW.ttlSeconds,
      // 02:30 UTC plus the 10 minutes' life, as an instant in Beijing time.
      expires_at: '2026-11-20T10:40:00+08:00',
      algorithm: 'sha256',
      header: 'X-PoW',
      format: '<challenge>.<nonce>',
    })
    // Nothing in it may break the split at the last '.'; the IP does not appear.
    expect(body.challenge).toMatch(/^[\w~-]+$/)
    expect(body.challenge).not.toContain(IP)
  })

  it('issues what was asked, clamped to the maximum, and says when it earns nothing', async () => {
    expect((await issueChallenge(SECRET, IP, 20, NOW)).difficulty).toBe(20)
    expect((await issueChallenge(SECRET, IP, 99, NOW)).difficulty).toBe(POW.maxDifficulty)
    const easy = await issueChallenge(SECRET, IP, 4, NOW)
    expect(easy).toMatchObject({ difficulty: 4, raises_allowance: false })
  })

  it('gives a fresh challenge every time', async () => {
    const a = await issueChallenge(SECRET, IP, 0, NOW)
    const b = await issueChallenge(SECRET, IP, 0, NOW)
    expect(a.challenge).not.toBe(b.challenge)
  })
})

describe('verifyProof', () => {
  it('accepts a solved proof and reports its difficulty and expiry', async () => {
    const { body, header } = await solved()
    expect(header.startsWith(body.challenge + '.')).toBe(true)
    expect(await verifyProof(SECRET, header, IP, NOW + 1000, EASY)).toEqual({ ok: true, difficulty: 8, expiresAtMs: Date.parse(body.expires_at) })
  })

  it('accepts a solved proof at the real default difficulty', async () => {
    const body = await issueChallenge(SECRET, IP, 0, NOW)
    const header = await solveChallenge(body.challenge, body.difficulty)
    expect(await verifyProof(SECRET, header, IP, NOW)).toMatchObject({ ok: true, difficulty: POW.defaultDifficulty })
  })

  it('refuses a tampered challenge as forged: later expiry, lower difficulty, other IP tag, other MAC', async () => {
    const { body } = await solved(10)
    const [v, exp, bits, tag, salt, mac] = body.challenge.split('~')
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1)
    const forgeries = [
      [v, Number(exp) + 3600, bits, tag, salt, mac],
      [v, exp, 8, tag, salt, mac],
      [v, exp, bits, flip(tag), salt, mac],
      [v, exp, bits, tag, flip(salt), mac],
      [v, exp, bits, tag, salt, flip(mac)],
    ]
    for (const parts of forgeries) {
      const forged = await solveChallenge(parts.join('~'), 8)
      expect(await verifyProof(SECRET, forged, IP, NOW, EASY), forged).toEqual({ ok: false, reason: 'forged' })
    }
  })

  it('refuses a proof signed with another secret as forged', async () => {
    const { header } = await solved()
    expect(await verifyProof('another-secret', header, IP, NOW, EASY)).toEqual({ ok: false, reason: 'forged' })
  })

  it('refuses an expired proof, from the second of its expiry', async () => {
    const { body, header } = await solved()
    const expiry = Date.parse(body.expires_at)
    expect((await verifyProof(SECRET, header, IP, expiry - 1, EASY)).ok).toBe(true)
    expect(await verifyProof(SECRET, header, IP, expiry, EASY)).toEqual({ ok: false, reason: 'expired' })
    expect(await verifyProof(SECRET, header, IP, expiry + 86_400_000, EASY)).toEqual({ ok: false, reason: 'expired' })
  })

  it('refuses a proof reused from another IP', async () => {
    const { header } = await solved()
    for (const other of ['203.0.113.8', '2001:db8::1', '', '127.0.0.1']) {
      expect(await verifyProof(SECRET, header, other, NOW, EASY)).toEqual({ ok: false, reason: 'wrong-ip' })
    }
    // The same address spelled another way is the same caller.
    const v6 = await solved(8, '2001:DB8::1')
    expect((await verifyProof(SECRET, v6.header, ' 2001:db8:0:0:0:0:0:1', NOW, EASY)).ok).toBe(true)
    const mapped = await solved(8, '::ffff:203.0.113.7')
    expect((await verifyProof(SECRET, mapped.header, IP, NOW, EASY)).ok).toBe(true)
  })

  it('refuses a proof of a challenge easier than the minimum as too-easy', async () => {
    const body = await issueChallenge(SECRET, IP, 4, NOW)
    const header = await solveChallenge(body.challenge, 4)
    expect(await verifyProof(SECRET, header, IP, NOW)).toEqual({ ok: false, reason: 'too-easy' })
    expect(await verifyProof(SECRET, header, IP, NOW, { minAcceptedDifficulty: 5 })).toEqual({ ok: false, reason: 'too-easy' })
    expect((await verifyProof(SECRET, header, IP, NOW, { minAcceptedDifficulty: 4 })).ok).toBe(true)
  })

  it('refuses a nonce whose hash misses the difficulty as unsolved', async () => {
    const body = await issueChallenge(SECRET, IP, 12, NOW, EASY)
    const header = await unsolvedHeader(body.challenge, 12)
    expect(await verifyProof(SECRET, header, IP, NOW, EASY)).toEqual({ ok: false, reason: 'unsolved' })
  })

  it('refuses garbage of every shape as malformed', async () => {
    const { body, header } = await solved()
    const c = body.challenge
    const garbage: unknown[] = [
      undefined,
      null,
      '',
      '.',
      '..',
      'abc',
      '.123',
      c,
      `${c}.`,
      `${c}. 1`,
      `${c}.1 2`,
      `${c}.é`,
      `${c}.${'1'.repeat(65)}`,
      `${header}${'1'.repeat(600)}`,
      `${c}~x.1`,
      `p2${c.slice(2)}.1`,
      c.replace(/~/g, '.') + '.1',
      // A MAC with stray low bits in its last character: same bytes, second spelling.
      `${c.slice(0, -1)}${String.fromCharCode(c.charCodeAt(c.length - 1) + 1)}.1`,
      `${c.slice(0, -1)}=.1`,
      '\u0000.\u0000',
    ]
    for (const g of garbage) {
      expect(await verifyProof(SECRET, g as string, IP, NOW, EASY), String(g)).toEqual({ ok: false, reason: 'malformed' })
    }
    // Well-formed but never signed.
    const unsigned = `p1~9999999999~8~${'a'.repeat(16)}~${'b'.repeat(16)}~${'c'.repeat(42)}A`
    expect(await verifyProof(SECRET, await solveChallenge(unsigned, 8), IP, NOW, EASY)).toEqual({ ok: false, reason: 'forged' })
  })

  it('never throws and never verifies on random headers', async () => {
    const { body } = await solved()
    const header = fc.oneof(
      fc.string({ maxLength: 700 }),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.string().map((s) => `${body.challenge}${s}`),
      fc.tuple(fc.array(fc.stringMatching(/^[\w-]{0,50}$/), { minLength: 1, maxLength: 8 }), fc.string({ maxLength: 10 })).map(([parts, n]) => `p1~${parts.join('~')}.${n}`)
    )
    await fc.assert(
      fc.asyncProperty(header, fc.constantFrom(IP, '', '::1'), async (h, ip) => {
        const r = await verifyProof(SECRET, h, ip, NOW, { minAcceptedDifficulty: 0 })
        expect(r.ok).toBe(false)
      }),
      { numRuns: 300 }
    )
  })

  it('never verifies a solved proof with one character of its challenge changed', async () => {
    const { body, header } = await solved()
    const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_~.'
    await fc.assert(
      fc.asyncProperty(fc.nat(body.challenge.length - 1), fc.constantFrom(...chars), async (at, ch) => {
        fc.pre(header[at] !== ch)
        const mutated = header.slice(0, at) + ch + header.slice(at + 1)
        const r = await verifyProof(SECRET, mutated, IP, NOW, EASY)
        expect(r.ok).toBe(false)
        expect(['forged', 'malformed']).toContain(r.ok ? '' : r.reason)
      }),
      { numRuns: 200 }
    )
  })
})

describe('powSecret', () => {
  it('uses POW_SECRET when set, a development secret under the emulator, and is off otherwise', () => {
    expect(powSecret({ POW_SECRET: 's3cret' }, false)).toBe('s3cret')
    expect(powSecret({ POW_SECRET: 's3cret' }, true)).toBe('s3cret')
    expect(powSecret({}, true)).toBe(DEV_POW_SECRET)
    expect(powSecret({ POW_SECRET: '' }, true)).toBe(DEV_POW_SECRET)
    expect(powSecret({}, false)).toBeNull()
  })
})

describe('verifyProof, checked once and remembered', () => {
  it('keeps applying expiry, the IP and the minimum to a proof it accepted before', async () => {
    const { header } = await solved(8)
    expect(await verifyProof(SECRET, header, IP, NOW, EASY)).toMatchObject({ ok: true })
    expect(await verifyProof(SECRET, header, IP, NOW + 1_000, EASY)).toMatchObject({ ok: true })
    expect(await verifyProof(SECRET, header, '198.51.100.1', NOW, EASY)).toEqual({ ok: false, reason: 'wrong-ip' })
    expect(await verifyProof('another-secret', header, IP, NOW, EASY)).toEqual({ ok: false, reason: 'forged' })
    expect(await verifyProof(SECRET, header, IP, NOW, { minAcceptedDifficulty: 16 })).toEqual({ ok: false, reason: 'too-easy' })
    expect(await verifyProof(SECRET, header, IP, NOW + POW.ttlSeconds * 1000, EASY)).toEqual({ ok: false, reason: 'expired' })
  })
})
