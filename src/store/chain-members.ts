/**
 * The industry-chain members document: what the industry-chain job (src/jobs/industry-chain.ts)
 * writes and /v1/industry-chain reads.
 */
import type { MembersDoc } from './shapes'

/** R2 key of the members document. */
export const MEMBERS_KEY = 'chains/members.json'

/**
 * A reader of the members document that parses it once per version (its R2 etag); undefined
 * before the job's first run. Each reader keeps its own parsed copy (`services.store` holds one).
 */
export function membersReader(): (store: R2Bucket) => Promise<MembersDoc | undefined> {
  let held: { etag: string; doc: MembersDoc } | undefined
  return async (store) => {
    const head = await store.head(MEMBERS_KEY)
    if (!head) return (held = undefined)
    if (held?.etag === head.etag) return held.doc
    const obj = await store.get(MEMBERS_KEY)
    if (!obj) return (held = undefined)
    held = { etag: obj.etag, doc: (await obj.json()) as MembersDoc }
    return held.doc
  }
}
