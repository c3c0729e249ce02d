// Type tests of src/index.ts's helpers, checked by tsc (`npm run check:client`): a wrong helper is
// a compile error here. Nothing runs.
import type { Answer, ApiError, Envelope, GetPath, MarketApiClient, Query, Schema, ValidationError } from '../src/index.js'

/** true when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const same = <A, B>(ok: Equal<A, B>): Equal<A, B> => ok
/** true when each of A and B is assignable to the other (openapi-fetch maps its answers' types). */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const mutual = <A, B>(ok: Mutual<A, B>): Mutual<A, B> => ok

same<Answer<'/v1/quote'>, Schema<'QuoteEnvelope'>>(true)
same<Answer<'/v1/technical'>, Schema<'TechnicalEnvelope'>>(true)
same<Query<'/v1/screen'>['preset'], Schema<'ScreenEnvelope'>['preset']>(true)
same<Query<'/v1/quote'>['code'], string>(true)
same<ApiError['error'], string>(true)
// The error codes are a closed list in /openapi.json, so a client can switch on them.
same<Extract<ApiError['code'], 'RATE_LIMITED' | 'NOT_FOUND' | 'DEADLINE_EXCEEDED'>, 'RATE_LIMITED' | 'NOT_FOUND' | 'DEADLINE_EXCEEDED'>(true)
same<string extends ApiError['code'] ? true : false, false>(true)
same<ValidationError['detail'][number]['loc'], (string | number)[]>(true)
same<Envelope['ok'], boolean>(true)
// Every path the service documents answers GET.
same<GetPath, keyof import('../src/index.js').paths>(true)

// The client's answers: data is the JSON envelope, error the other statuses' bodies.
declare const api: MarketApiClient
export async function answers() {
  const { data, error } = await api.GET('/v1/technical', { params: { query: { code: 'sh600519' } } })
  mutual<typeof data, Schema<'TechnicalEnvelope'> | undefined>(true)
  mutual<NonNullable<typeof error>, ApiError | ValidationError | Schema<'DeadlineExceeded'>>(true)
  // @ts-expect-error code is required
  await api.GET('/v1/quote', { params: { query: {} } })
}
