/** The upstreams the API reads from. Shared by the channels and the emulator, which must not import each other. */
export type ChannelName = 'eastmoney' | 'tencent' | 'sina' | 'ths' | 'hkex'

/**
 * The upstreams that serve quotes and K-lines (the {@link ChannelName}s with a full channel); THS
 * (10jqka) only serves its hot list, as a second source for /v1/hot; HKEX (hkexnews) only the
 * CCASS shareholding search behind /v1/shareholder's HK sections.
 */
export type SeriesChannelName = Exclude<ChannelName, 'ths' | 'hkex'>

/** Every channel with a full client, named in the quote and K-line tables (src/channels/channel-tables.ts): /v1/health reports on these. */
export const ALL_CHANNELS: readonly SeriesChannelName[] = ['eastmoney', 'tencent', 'sina']
