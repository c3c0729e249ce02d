import type { ChannelContext } from '../channels/types'
import type { Ask } from './types'

/**
 * The {@link Ask} of a family one channel serves: whichever channel the route's chain names, the
 * client function `f` with the context the facade gives.
 */
export const askWith =
  <T>(f: (ctx: ChannelContext) => Promise<T>): Ask<T> =>
  (_channel, ctx) =>
    f(ctx)
