/**
 * The event tags of /v1/events (42 tags per stock), as data. Each tag names the upstream
 * event types that feed it (`types`: Eastmoney company-calendar `RPT_ORGOP_ALL` EVENT_TYPE words,
 * upstreams.md §5.9); a tag with no types has no upstream of ours yet, so it is reported as not
 * served (`applies: null`), never guessed.
 */

type EventGroup = 'distribution' | 'earnings' | 'trading' | 'capital' | 'holders' | 'governance' | 'corporate' | 'risk' | 'market'

export interface EventTag {
  tag: string
  name: string
  name_zh: string
  group: EventGroup
  /** Upstream EVENT_TYPE words that mean this tag; empty = not served yet. */
  types: readonly string[]
}

const t = (tag: string, name: string, name_zh: string, group: EventGroup, types: readonly string[] = []): EventTag => ({ tag, name, name_zh, group, types })

export const EVENT_TAGS: readonly EventTag[] = [
  // Distributions
  t('dividend_plan', 'Distribution plan announced', '分配预案', 'distribution', ['分配预案']),
  t('shareholder_meeting', 'Shareholders\' meeting', '股东大会', 'governance', ['股东大会']),
  t('record_date', 'Record date', '股权登记', 'distribution', ['股权登记']),
  t('ex_dividend', 'Ex-dividend / ex-rights date', '除权除息', 'distribution', ['除权除息']),
  t('bonus_listing', 'Bonus shares listed', '红股上市', 'distribution'),
  // Earnings
  t('earnings_report', 'Periodic report published', '财报披露', 'earnings', ['业绩披露']),
  t('earnings_schedule', 'Report date scheduled', '预约披露', 'earnings'),
  t('earnings_forecast', 'Earnings pre-announcement', '业绩预告', 'earnings'),
  t('earnings_flash', 'Earnings flash report', '业绩快报', 'earnings'),
  // Trading
  t('suspension', 'Trading suspended', '停牌', 'trading', ['停牌']),
  t('resumption', 'Trading resumed', '复牌', 'trading', ['复牌']),
  t('block_trade', 'Block trade', '大宗交易', 'trading'),
  t('dragon_tiger', 'Top-trader board (龙虎榜) appearance', '龙虎榜', 'trading'),
  t('limit_up', 'Closed at limit-up', '涨停', 'trading'),
  t('limit_down', 'Closed at limit-down', '跌停', 'trading'),
  t('margin_eligible', 'Margin-trading eligibility change', '融资融券标的', 'trading'),
  t('index_change', 'Index inclusion or removal', '指数调整', 'trading'),
  // Capital
  t('lockup_release', 'Lock-up expiry', '限售解禁', 'capital'),
  t('placement', 'Private placement', '定向增发', 'capital'),
  t('rights_issue', 'Rights issue', '配股', 'capital'),
  t('public_offering', 'Follow-on public offering', '公开增发', 'capital'),
  t('convertible_issue', 'Convertible bond issue', '可转债发行', 'capital'),
  t('buyback', 'Share buyback', '股份回购', 'capital'),
  t('equity_incentive', 'Equity incentive plan', '股权激励', 'capital'),
  t('employee_ownership', 'Employee stock ownership plan', '员工持股计划', 'capital'),
  // Holders
  t('holder_increase', 'Major holder increases stake', '股东增持', 'holders'),
  t('holder_decrease', 'Major holder reduces stake', '股东减持', 'holders'),
  t('executive_trade', 'Executive shareholding change', '高管持股变动', 'holders'),
  t('pledge', 'Shares pledged', '股权质押', 'holders'),
  t('pledge_release', 'Pledge released', '质押解除', 'holders'),
  t('control_change', 'Change of controlling holder', '实控人变更', 'holders'),
  // Corporate
  t('major_contract', 'Major contract', '重大合同', 'corporate'),
  t('restructuring', 'Asset restructuring', '资产重组', 'corporate'),
  t('acquisition', 'Acquisition or merger', '收购兼并', 'corporate'),
  t('related_transaction', 'Related-party transaction', '关联交易', 'corporate'),
  t('guarantee', 'External guarantee', '对外担保', 'corporate'),
  t('name_change', 'Name change', '更名', 'corporate'),
  t('institution_survey', 'Institutional research visit', '机构调研', 'market'),
  // Risk
  t('litigation', 'Litigation or arbitration', '诉讼仲裁', 'risk'),
  t('regulatory_penalty', 'Regulatory penalty', '监管处罚', 'risk'),
  t('inquiry_letter', 'Exchange inquiry letter', '问询函', 'risk'),
  t('risk_warning', 'Risk warning (ST) or delisting risk', '风险警示', 'risk'),
]

/** Tag by upstream EVENT_TYPE word. */
export const TAG_OF_TYPE: ReadonlyMap<string, string> = new Map(EVENT_TAGS.flatMap((e) => e.types.map((ty) => [ty, e.tag] as const)))
