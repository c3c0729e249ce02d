/** The upstreams the API reads from. Shared by the channels and the emulator, which must not import each other. */
export type ChannelName = 'eastmoney' | 'tencent' | 'sina'
