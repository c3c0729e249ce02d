/**
 * The macro indicators /v1/macro serves, per region: our short name, what it is, its unit and
 * frequency, and where Eastmoney's datacenter (upstreams.md §5.12) keeps it. Data in one place:
 * the route's validation, its OpenAPI description and the channel all read this table.
 *
 * Sources: China from the `RPT_ECONOMY_*` reports (one column each), LPR from `RPTA_WEB_RATE`,
 * treasury yields from `RPTA_WEB_TREASURYYIELD` (one column per tenor); other regions from the
 * `RPT_ECONOMICVALUE_<COUNTRY>` reports, one `INDICATOR_ID` per series (IDs as public clients of
 * the datacenter use them). `keywords`: the upstream's `INDICATOR_NAME` must contain one, so a
 * renumbered indicator is refused rather than served under the wrong name.
 */

export const MACRO_REGIONS = ['cn', 'us', 'jp', 'eu', 'hk'] as const
export type MacroRegion = (typeof MACRO_REGIONS)[number]

export type MacroFrequency = 'daily' | 'monthly' | 'quarterly'

type MacroSource =
  /** A China report: `column` of `report`, dated by `dateColumn`; `released`: the date column is the release day itself. */
  | { kind: 'report'; report: string; column: string; dateColumn: string; released?: boolean }
  /** A country report's indicator rows: `REPORT_DATE`, `PUBLISH_DATE`, `VALUE`. */
  | { kind: 'indicator'; report: string; indicator: string; keywords: string[] }

export interface MacroSeriesSpec {
  name: string
  title: string
  unit: string
  frequency: MacroFrequency
  source: MacroSource
}

const cn = (report: string, column: string, dateColumn = 'REPORT_DATE', released = false): MacroSource => ({ kind: 'report', report, column, dateColumn, released })
const yieldOf = (column: string) => cn('RPTA_WEB_TREASURYYIELD', column, 'SOLAR_DATE', true)
const indicator = (report: string, id: string, ...keywords: string[]): MacroSource => ({ kind: 'indicator', report, indicator: id, keywords })

export const MACRO_CATALOGUE: Record<MacroRegion, MacroSeriesSpec[]> = {
  cn: [
    { name: 'gdp', title: 'GDP, cumulative year to date', unit: '100 million CNY', frequency: 'quarterly', source: cn('RPT_ECONOMY_GDP', 'DOMESTICL_PRODUCT_BASE') },
    { name: 'gdp_yoy', title: 'GDP growth, cumulative, year on year', unit: '%', frequency: 'quarterly', source: cn('RPT_ECONOMY_GDP', 'SUM_SAME') },
    { name: 'cpi', title: 'Consumer prices, national, year on year', unit: '%', frequency: 'monthly', source: cn('RPT_ECONOMY_CPI', 'NATIONAL_SAME') },
    { name: 'cpi_mom', title: 'Consumer prices, national, month on month', unit: '%', frequency: 'monthly', source: cn('RPT_ECONOMY_CPI', 'NATIONAL_SEQUENTIAL') },
    { name: 'ppi', title: 'Producer prices, year on year', unit: '%', frequency: 'monthly', source: cn('RPT_ECONOMY_PPI', 'BASE_SAME') },
    { name: 'pmi', title: 'Manufacturing PMI (official)', unit: 'index, 50 = no change', frequency: 'monthly', source: cn('RPT_ECONOMY_PMI', 'MAKE_INDEX') },
    { name: 'pmi_non_manufacturing', title: 'Non-manufacturing PMI (official)', unit: 'index, 50 = no change', frequency: 'monthly', source: cn('RPT_ECONOMY_PMI', 'NMAKE_INDEX') },
    { name: 'lpr_1y', title: 'Loan prime rate, 1 year', unit: '% a year', frequency: 'monthly', source: cn('RPTA_WEB_RATE', 'LPR1Y', 'TRADE_DATE', true) },
    { name: 'lpr_5y', title: 'Loan prime rate, over 5 years', unit: '% a year', frequency: 'monthly', source: cn('RPTA_WEB_RATE', 'LPR5Y', 'TRADE_DATE', true) },
    { name: 'm2', title: 'Money supply M2, end of month', unit: '100 million CNY', frequency: 'monthly', source: cn('RPT_ECONOMY_CURRENCY_SUPPLY', 'BASIC_CURRENCY') },
    { name: 'm2_yoy', title: 'Money supply M2, year on year', unit: '%', frequency: 'monthly', source: cn('RPT_ECONOMY_CURRENCY_SUPPLY', 'BASIC_CURRENCY_SAME') },
    { name: 'm1_yoy', title: 'Money supply M1, year on year', unit: '%', frequency: 'monthly', source: cn('RPT_ECONOMY_CURRENCY_SUPPLY', 'CURRENCY_SAME') },
    { name: 'fiscal_revenue', title: 'General public budget revenue, month', unit: '100 million CNY', frequency: 'monthly', source: cn('RPT_ECONOMY_INCOME', 'BASE') },
    { name: 'fiscal_revenue_yoy', title: 'General public budget revenue, year on year', unit: '%', frequency: 'monthly', source: cn('RPT_ECONOMY_INCOME', 'BASE_SAME') },
    { name: 'treasury_2y', title: 'Government bond yield, 2 years', unit: '% a year', frequency: 'daily', source: yieldOf('EMM00588704') },
    { name: 'treasury_10y', title: 'Government bond yield, 10 years', unit: '% a year', frequency: 'daily', source: yieldOf('EMM00166466') },
    { name: 'treasury_30y', title: 'Government bond yield, 30 years', unit: '% a year', frequency: 'daily', source: yieldOf('EMM00166469') },
  ],
  us: [
    { name: 'cpi', title: 'Consumer prices, year on year (not seasonally adjusted)', unit: '%', frequency: 'monthly', source: indicator('RPT_ECONOMICVALUE_USA', 'EMG00000733', 'CPI', '消费者物价') },
    { name: 'core_cpi', title: 'Core consumer prices, year on year', unit: '%', frequency: 'monthly', source: indicator('RPT_ECONOMICVALUE_USA', 'EMG00000746', 'CPI', '消费者物价') },
    { name: 'unemployment', title: 'Unemployment rate (seasonally adjusted)', unit: '%', frequency: 'monthly', source: indicator('RPT_ECONOMICVALUE_USA', 'EMG00001039', '失业') },
    { name: 'fed_rate', title: 'Federal funds target rate, upper bound', unit: '% a year', frequency: 'monthly', source: indicator('RPT_ECONOMICVALUE_USA', 'EMG00342250', '利率') },
    { name: 'treasury_2y', title: 'Treasury yield, 2 years', unit: '% a year', frequency: 'daily', source: yieldOf('EMG00001306') },
    { name: 'treasury_10y', title: 'Treasury yield, 10 years', unit: '% a year', frequency: 'daily', source: yieldOf('EMG00001310') },
    { name: 'treasury_30y', title: 'Treasury yield, 30 years', unit: '% a year', frequency: 'daily', source: yieldOf('EMG00001312') },
  ],
  jp: [
    { name: 'cpi', title: 'National consumer prices, year on year', unit: '%', frequency: 'monthly', source: indicator('RPT_ECONOMICVALUE_JPAN', 'EMG00005004', 'CPI', '消费者物价') },
    { name: 'policy_rate', title: 'Bank of Japan policy rate decision', unit: '% a year', frequency: 'monthly', source: indicator('RPT_ECONOMICVALUE_JPAN', 'EMG00342252', '利率') },
  ],
  // Eastmoney's datacenter has no euro-area report; Germany, the largest member, stands in, named as such.
  eu: [
    { name: 'de_zew', title: 'Germany ZEW economic sentiment', unit: 'balance of answers, points', frequency: 'monthly', source: indicator('RPT_ECONOMICVALUE_GER', 'EMG00172577', 'ZEW') },
    { name: 'de_retail_sales_yoy', title: 'Germany real retail sales, year on year', unit: '%', frequency: 'monthly', source: indicator('RPT_ECONOMICVALUE_GER', 'EMG01333192', '零售') },
  ],
  hk: [
    { name: 'cpi', title: 'Composite consumer prices, year on year', unit: '%', frequency: 'monthly', source: indicator('RPT_ECONOMICVALUE_HK', 'EMG00059282', 'CPI', '消费') },
  ],
}

/** The short names of a region, in catalogue order. */
export const macroNames = (region: MacroRegion) => MACRO_CATALOGUE[region].map((s) => s.name)
