import '../env'
export { KeyGuard } from '../access/key-guard'
export { AnonGuard } from '../access/anon-guard'

export default {
  async fetch(): Promise<Response> {
    return new Response('starting', { status: 503 })
  },
} satisfies ExportedHandler<Env>
