/**
 * The playbooks of /v1/playbooks: 13 trading recipes in 12 themes, each executable. Its `signals`
 * are expressions in the /v1/screen factor language; a stock enters on a close where every signal
 * holds at once, stays while `hold` holds, and leaves on the first close where `exit.expr` holds,
 * `hold` fails, the stop-loss or take-profit is crossed, or it has been held `max_days` sessions.
 * The evidence is not written here: the backtest job (src/jobs/playbook-backtest.ts) computes it.
 *
 * Factors are those a point-in-time stock-day row carries (src/domain/backtest/factors.ts): the
 * technical columns, the day's price and volume factors, dividends, and the size factors from the
 * share counts. Statement factors (PE, ROE, growth) are left out on purpose: the history store
 * keeps bars and corporate actions, not dated statements, so a backtest over them could not be
 * point in time. That is why value, quality and growth are not themes here.
 *
 * Cross-sectional functions (`top`, `bottom`) are not allowed: the backtest evaluates each stock
 * over its own days, and a rank over days would look into the future. Tested.
 */

/** One rule of the setup, named so a user can read why a stock was picked. */
interface PlaybookSignal {
  name: string
  expr: string
}

interface PlaybookExit {
  /** Sell on a close where this holds. */
  expr: string
  /** Sell on a close this far (percent, negative) below the entry price; null for none. */
  stop_loss_pct: number | null
  /** Sell on a close this far (percent) above the entry price; null for none. */
  take_profit_pct: number | null
  /** Sell after this many sessions held at most. */
  max_days: number
}

export interface Playbook {
  id: string
  name: string
  theme: PlaybookTheme
  description: string
  signals: PlaybookSignal[]
  stages: {
    /** Buy at the next session's open after a close where every signal holds (the expression is their intersection). */
    entry: { rule: string; expr: string }
    /** Keep the position while this holds. */
    hold: { rule: string; expr: string }
    exit: PlaybookExit & { rule: string }
  }
  /** Fixed holding periods (sessions) the evidence reports. */
  periods: number[]
}

export const PLAYBOOK_THEMES = [
  'dividend', 'momentum', 'breakout', 'mean-reversion', 'low-volatility', 'oversold-rebound',
  'volume-surge', 'trend-following', 'small-cap', 'large-cap', 'money-flow', 'sentiment',
] as const
type PlaybookTheme = (typeof PLAYBOOK_THEMES)[number]

/** Holding periods every playbook reports; the longest is what "losses avoided" compares with. */
export const PERIODS = [5, 10, 20]

const sig = (name: string, expr: string): PlaybookSignal => ({ name, expr })

interface Draft {
  id: string
  name: string
  theme: PlaybookTheme
  description: string
  signals: PlaybookSignal[]
  hold: [rule: string, expr: string]
  exit: [rule: string, expr: string, stopLoss: number | null, takeProfit: number | null]
}

/** A playbook from its parts: the entry expression is the signals' intersection; max_days the longest period. */
function playbook(d: Draft): Playbook {
  const exprs = d.signals.map((s) => s.expr)
  return {
    id: d.id,
    name: d.name,
    theme: d.theme,
    description: d.description,
    signals: d.signals,
    stages: {
      entry: { rule: `Buy at the next session's open after a close where all ${d.signals.length} signals hold`, expr: exprs.length === 1 ? exprs[0] : `intersect([${exprs.join(', ')}])` },
      hold: { rule: d.hold[0], expr: d.hold[1] },
      exit: { rule: d.exit[0], expr: d.exit[1], stop_loss_pct: d.exit[2], take_profit_pct: d.exit[3], max_days: PERIODS.at(-1)! },
    },
    periods: [...PERIODS],
  }
}

export const PLAYBOOKS: readonly Playbook[] = [
  playbook({
    id: 'dividend-uptrend', name: 'High yield in an uptrend', theme: 'dividend',
    description: 'Stocks paying more than 3% in cash over the last 12 months whose price is above its 60-day average: income without catching a falling knife.',
    signals: [sig('yield above 3%', 'DividendYield > 3'), sig('above the 60-day average', 'ClosePrice > ma_MA_60')],
    hold: ['Hold while the close stays above the 120-day average', 'ClosePrice > ma_MA_120'],
    exit: ['Sell when the close falls 5% below the 60-day average', 'ClosePrice < 0.95 * ma_MA_60', -10, null],
  }),
  playbook({
    id: 'momentum-leaders', name: 'Momentum leaders', theme: 'momentum',
    description: 'Up more than 15% over 20 sessions and 20% over 60, yet not overbought on the 12-day RSI.',
    signals: [sig('20-session gain above 15%', 'Change20D > 15'), sig('60-session gain above 20%', 'Change60D > 20'), sig('RSI(12) below 80', 'rsi_RSI_12 < 80')],
    hold: ['Hold while the close is above the 20-day average', 'ClosePrice > ma_MA_20'],
    exit: ['Sell after a 5-session loss of more than 8%', 'Change5D < -8', -8, null],
  }),
  playbook({
    id: 'new-high-breakout', name: '250-day high on volume', theme: 'breakout',
    description: 'A close at the highest high of a year, on 1.5 times the usual volume and a gain above 2%.',
    signals: [sig('new 250-session high', 'NewHigh250 == 1'), sig('volume 1.5x its 5-day mean', 'VolumeRatio > 1.5'), sig('up more than 2%', 'ChangePCT > 2')],
    hold: ['Hold while the close is above the 10-day average', 'ClosePrice > ma_MA_10'],
    exit: ['Sell on a day down more than 5%', 'ChangePCT < -5', -7, 25],
  }),
  playbook({
    id: 'bollinger-reversion', name: 'Back to the Bollinger middle', theme: 'mean-reversion',
    description: 'A close below the lower Bollinger band and 8% under the 24-day average: bet on the return to the middle band.',
    signals: [sig('below the lower band', 'ClosePrice < boll_LOWER'), sig('8% below the 24-day average', 'bias_BIAS_24 < -8')],
    hold: ['Hold while the close is below the upper band', 'ClosePrice < boll_UPPER'],
    exit: ['Sell once the close reaches the middle band', 'ClosePrice >= boll_MID', -10, 15],
  }),
  playbook({
    id: 'quiet-uptrend', name: 'Quiet uptrend', theme: 'low-volatility',
    description: 'Average true range under 2.5% of the price, a narrow day, and a price above the 60-day average: steady climbers.',
    signals: [sig('ATR under 2.5% of the close', 'atr_ATR < 0.025 * ClosePrice'), sig('range under 3%', 'Amplitude < 3'), sig('above the 60-day average', 'ClosePrice > ma_MA_60')],
    hold: ['Hold while the close is above the 60-day average', 'ClosePrice > ma_MA_60'],
    exit: ['Sell when volatility wakes up: ATR above 4% of the close', 'atr_ATR > 0.04 * ClosePrice', -6, null],
  }),
  playbook({
    id: 'oversold-bounce', name: 'Oversold bounce', theme: 'oversold-rebound',
    description: 'RSI(6) under 20 and KDJ J below zero: sold out in the short run, bought for the bounce.',
    signals: [sig('RSI(6) below 20', 'rsi_RSI_6 < 20'), sig('KDJ J below 0', 'kdj_J < 0')],
    hold: ['Hold while RSI(6) stays under 80', 'rsi_RSI_6 < 80'],
    exit: ['Sell once RSI(6) is back above 60', 'rsi_RSI_6 > 60', -8, 12],
  }),
  playbook({
    id: 'volume-surge', name: 'Volume surge on an up day', theme: 'volume-surge',
    description: 'Volume 2.5 times its 5-day mean on a day up 3% to 9% (not sealed at the limit, so it could be bought).',
    signals: [sig('volume 2.5x its 5-day mean', 'VolumeRatio > 2.5'), sig('up at least 3%', 'ChangePCT > 3'), sig('below 9%', 'ChangePCT < 9')],
    hold: ['Hold while the close is above the 5-day average', 'ClosePrice > ma_MA_5'],
    exit: ['Sell when volume dries up below half its 5-day mean', 'VolumeRatio < 0.5', -7, 20],
  }),
  playbook({
    id: 'ma-alignment', name: 'Moving averages stacked up', theme: 'trend-following',
    description: 'MA5 > MA10 > MA20 > MA60 with the close above MA5: the classic bullish alignment.',
    signals: [
      sig('MA5 above MA10', 'ma_MA_5 > ma_MA_10'), sig('MA10 above MA20', 'ma_MA_10 > ma_MA_20'),
      sig('MA20 above MA60', 'ma_MA_20 > ma_MA_60'), sig('close above MA5', 'ClosePrice > ma_MA_5'),
    ],
    hold: ['Hold while MA10 stays above MA20', 'ma_MA_10 > ma_MA_20'],
    exit: ['Sell when MA5 crosses below MA20', 'ma_MA_5 < ma_MA_20', -8, null],
  }),
  playbook({
    id: 'macd-dmi-trend', name: 'MACD and DMI agree', theme: 'trend-following',
    description: 'MACD above its signal line and above zero while DMI says a trend is under way (ADX above 25, +DI over -DI).',
    signals: [
      sig('DIF above DEA', 'macd_DIF > macd_DEA'), sig('DIF above zero', 'macd_DIF > 0'),
      sig('ADX above 25', 'dmi_ADX > 25'), sig('+DI above -DI', 'dmi_PDI > dmi_MDI'),
    ],
    hold: ['Hold while DIF stays above zero', 'macd_DIF > 0'],
    exit: ['Sell when DIF falls below DEA', 'macd_DIF < macd_DEA', -8, null],
  }),
  playbook({
    id: 'small-cap-strength', name: 'Small caps with strength', theme: 'small-cap',
    description: 'Float market cap under 5 billion CNY, up more than 5% over 20 sessions and above the 20-day average.',
    signals: [sig('float cap under 50 (100 million CNY)', 'FloatMV < 50'), sig('20-session gain above 5%', 'Change20D > 5'), sig('above the 20-day average', 'ClosePrice > ma_MA_20')],
    hold: ['Hold while the close is above the 20-day average', 'ClosePrice > ma_MA_20'],
    exit: ['Sell after a 5-session loss of more than 6%', 'Change5D < -6', -8, 20],
  }),
  playbook({
    id: 'blue-chip-pullback', name: 'Blue-chip pullback', theme: 'large-cap',
    description: 'Total market cap above 50 billion CNY, in a long uptrend (above MA250) but dipped below its 20-day average.',
    signals: [sig('total cap above 500 (100 million CNY)', 'TotalMV > 500'), sig('above the 250-day average', 'ClosePrice > ma_MA_250'), sig('below the 20-day average', 'ClosePrice < ma_MA_20')],
    hold: ['Hold while the close is above the 250-day average', 'ClosePrice > ma_MA_250'],
    exit: ['Sell once the close is 5% above the 20-day average', 'ClosePrice > 1.05 * ma_MA_20', -8, 12],
  }),
  playbook({
    id: 'money-flow-turn', name: 'Money flow turns', theme: 'money-flow',
    description: 'Money flow index under 25 (money has left) on a day that closes up on above-average volume.',
    signals: [sig('MFI below 25', 'mfi_MFI < 25'), sig('up day', 'ChangePCT > 0'), sig('volume above its 5-day mean', 'VolumeRatio > 1')],
    hold: ['Hold while MFI stays under 80', 'mfi_MFI < 80'],
    exit: ['Sell once MFI is back above 60', 'mfi_MFI > 60', -8, 15],
  }),
  playbook({
    id: 'sentiment-washout', name: 'Sentiment washout', theme: 'sentiment',
    description: 'Psychological line under 35 (few up days in 12) and BR willingness under 70: the crowd has given up.',
    signals: [sig('PSY below 35', 'psy_PSY < 35'), sig('BR below 70', 'brar_BR < 70')],
    hold: ['Hold while PSY stays under 75', 'psy_PSY < 75'],
    exit: ['Sell once BR is back above 120', 'brar_BR > 120', -8, 15],
  }),
]

const BY_ID = new Map(PLAYBOOKS.map((p) => [p.id, p]))

/** A playbook by its id. */
export const playbookById = (id: string): Playbook | undefined => BY_ID.get(id)

/**
 * Trading costs and execution rules the backtest applies, stated once (the evidence repeats them).
 * Commission: 0.025% a side (a typical retail rate; the 5 CNY minimum is left out, as the
 * backtest trades no fixed amount). Stamp duty: 0.05% on sales (the rate since 2023-08-28).
 * The 0.001% transfer fee is below the rounding of the figures and left out.
 */
export const BACKTEST_RULES = {
  commission_pct: 0.025,
  stamp_duty_pct: 0.05,
  /** Sessions of signals the backtest covers, ending at the store's latest complete day. */
  sessions: 250,
  /** The benchmark index the same trades are compared with. */
  index: 'sh000300',
} as const
