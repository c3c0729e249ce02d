/**
 * The industry-chain members document: what the industry-chain job (src/jobs/industry-chain.ts)
 * writes and /v1/industry-chain reads.
 */
import type { MembersDoc } from './shapes'
import { cacheKind } from '../runtime/isolate-caches'

/** R2 key of the members document. */
export const MEMBERS_KEY = 'chains/members.json'

/**
 * The members document parsed once per version (its R2 etag, checked on every read); undefined
 * before the job's first run. One copy per `Services` (its store facade).
 */
class ChainMembers {
  private held: { etag: string; doc: MembersDoc } | undefined

  async read(store: R2Bucket): Promise<MembersDoc | undefined> {
    const head = await store.head(MEMBERS_KEY)
    if (!head) return (this.held = undefined)
    if (this.held?.etag === head.etag) return this.held.doc
    const obj = await store.get(MEMBERS_KEY)
    if (!obj) return (this.held = undefined)
    this.held = { etag: obj.etag, doc: (await obj.json()) as MembersDoc }
    return this.held.doc
  }

  clear(): void {
    this.held = undefined
  }
}

/** The industry-chain members of this isolate (one copy per `Services`, its store facade). */
export const CHAIN_MEMBERS = cacheKind('industry-chain members', () => new ChainMembers(), (m) => m.clear())
