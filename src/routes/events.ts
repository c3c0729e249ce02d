import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { EVENT_TAGS, TAG_OF_TYPE } from '../data/event-tags'
import { addDays, beijing } from '../domain/dates'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import { companyEvents, type CompanyEvent } from '../services/calendar-events'
import { oneStock } from './shared/stock-code'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { staleOf } from '../services/reference'

/** Who may call it and what it costs: the pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

/** How far back events are listed (scheduled ones ahead come as the upstream lists them). */
const EVENTS_DAYS_BACK = 365

const TAG_NAMES = EVENT_TAGS.map((e) => e.tag) as [string, ...string[]]

const Query = z.object({
  code: z.string({ error: 'code is required' }).openapi({ description: 'One A-share stock with its sh, sz or bj prefix', example: 'sh600519' }),
})

const EventRow = z
  .object({
    date: z.string().openapi({ description: 'Event date `YYYY-MM-DD` (may lie ahead for scheduled events such as a report date)' }),
    tag: z.enum(TAG_NAMES).nullable().openapi({ description: 'The event tag (see `tags`); null for an upstream event type not in the catalogue' }),
    title: z.string().openapi({ description: 'The upstream\'s event type, e.g. 除权除息' }),
    detail: z.string().openapi({ description: 'The upstream\'s one-line content' }),
  })
  .openapi('EventRow')

const TagRow = z
  .object({
    tag: z.enum(TAG_NAMES).openapi({ description: 'Tag id' }),
    name: z.string().openapi({ description: 'Tag name in English' }),
    name_zh: z.string().openapi({ description: 'Tag name in Chinese' }),
    group: z.string().openapi({ description: 'distribution, earnings, trading, capital, holders, governance, corporate, risk or market' }),
    served: z.boolean().openapi({ description: 'Whether an upstream of ours reports this kind of event yet' }),
    applies: z.boolean().nullable().openapi({ description: 'Whether the stock had such an event in the window; null when the tag is not served (unknown, not "no")' }),
    latest_date: z.string().nullable().openapi({ description: 'Date of the newest such event, `YYYY-MM-DD`' }),
    fact: z.string().nullable().openapi({ description: 'That event\'s content' }),
  })
  .openapi('EventTagRow')

const EventsData = z
  .object({
    from: z.string().openapi({ description: 'First date of the window, `YYYY-MM-DD`' }),
    events: z.array(EventRow).openapi({ description: 'Events, newest first' }),
    tags: z.array(TagRow).openapi({ description: `All ${EVENT_TAGS.length} tags in catalogue order: ${EVENT_TAGS.map((e) => e.tag).join(', ')}` }),
  })
  .openapi('EventsData')

const Response = envelopeSchema('EventsEnvelope', EventsData, AS_OF.date('the day the events were read (Beijing)')).openapi({
  example: {
    ok: true,
    endpoint: 'events',
    tier: 'pro',
    elapsed_ms: 30,
    source: 'eastmoney',
    as_of: '2026-11-20',
    data: {
      from: '2025-11-20',
      events: [{ date: '2026-06-19', tag: 'ex_dividend', title: '除权除息', detail: '10派276.73元(含税)，除权除息日' }],
      tags: [{ tag: 'ex_dividend', name: 'Ex-dividend / ex-rights date', name_zh: '除权除息', group: 'distribution', served: true, applies: true, latest_date: '2026-06-19', fact: '10派276.73元(含税)，除权除息日' }],
    },
  },
})

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/events',
  operationId: 'events',
  tags: ['Pro'],
  summary: 'Event tags of one A-share stock',
  description:
    `The stock's company events of the last ${EVENTS_DAYS_BACK} days (and scheduled ones ahead), newest first, each with its tag, and the ` +
    `${EVENT_TAGS.length} tags with whether each applies, its latest date and a short fact. Source: Eastmoney's company calendar ` +
    '(datacenter `RPT_ORGOP_ALL`). Tags no upstream of ours reports yet are listed with `served: false` and `applies: null`: unknown, never guessed. ' +
    'A-share stocks only (422 otherwise).',
  request: { query: Query },
  responses: {
    200: { description: 'Events and tags (ok:false when the upstream failed; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (_c, q) => void oneStock(q.code, 'events') })

/** The catalogue with each tag's state given the events (newest first). */
function tagStates(events: readonly CompanyEvent[]) {
  return EVENT_TAGS.map((e) => {
    const served = e.types.length > 0
    const latest = events.find((ev) => e.types.includes(ev.type))
    return {
      tag: e.tag,
      name: e.name,
      name_zh: e.name_zh,
      group: e.group,
      served,
      applies: served ? latest !== undefined : null,
      latest_date: latest?.date ?? null,
      fact: latest?.content ?? null,
    }
  })
}

/** GET /v1/events */
export function registerEvents(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const inst = oneStock(c.req.valid('query').code, 'events')
    const today = beijing(services.now()).date
    const from = addDays(today, -EVENTS_DAYS_BACK)
    const r = await services.reference.fetch(c, `events?${inst.code}&from=${from}`, ['eastmoney'], companyEvents(inst, from), {
      cls: 'events',
      key: `events?${inst.code}`,
    })
    if (!r.ok && r.code === 'UPSTREAM_UNAVAILABLE') {
      const data = { from, events: [], tags: tagStates([]).map((t) => ({ ...t, applies: null })) }
      return answer(c, 'events', { ok: false, source: 'none', data, code: 'UPSTREAM_UNAVAILABLE', error: `${inst.code}: ${r.error}` })
    }
    const source = r.source
    const found = r.ok ? r.value : []
    if (found.length === 0) {
      // Every listed stock publishes periodic reports: a calendar with nothing at all does not know the stock.
      const data = { from, events: [], tags: tagStates([]).map((t) => ({ ...t, applies: null })) }
      return answer(c, 'events', { ok: false, source, data, code: 'NO_DATA', error: `${inst.code}: the upstream has no event of this stock since ${from}` })
    }
    const events = found.map((e) => ({ date: e.date, tag: TAG_OF_TYPE.get(e.type) ?? null, title: e.type, detail: e.content }))
    // A stale copy keeps its own window (`from`), which says how far back it reaches.
    const data = { from: r.ok && r.stale ? addDays(r.stale.as_of.slice(0, 10), -EVENTS_DAYS_BACK) : from, events, tags: tagStates(found) }
    return answer(c, 'events', { ok: true, source, data, as_of: today, ...staleOf([r]) })
  })
}
