/**
 * Owned data tables kept as Workers static assets (public/_data/, wrangler.toml [assets]) rather
 * than in the script: a smaller bundle starts faster. The Worker reads them through
 * its `ASSETS` binding, which serves them whatever `run_worker_first` says; that setting sends the
 * public's requests for `/_data/*` to the Worker, whose answer is its JSON 404.
 */
import { CHAIN_THEMES_FILE, chainThemes, type ChainThemes } from '../data/industry-chains'
import type { AssetsRequest } from './shapes'
import { cacheKind } from '../runtime/isolate-caches'

/** Where the tables are served from the assets directory. */
const OWNED_TABLES_PATH = '/_data/'


/**
 * The tables, each parsed once: they change only with a deployment, which starts new isolates.
 * Only the parsed value is kept, never a read's promise (src/domain/shared-flight.ts, rule 1): the
 * first requests of an isolate may each read a table, and the first to finish is the one kept.
 */
class OwnedTables {
  private readonly parsed = new Map<string, unknown>()

  /** The industry-chain themes (src/data/industry-chains.ts). */
  chainThemes(c: AssetsRequest): Promise<ChainThemes> {
    return this.read(c.env.ASSETS, CHAIN_THEMES_FILE, (text) => chainThemes(JSON.parse(text)))
  }

  /** A file's text as it lies (the OpenAPI document, src/openapi/route.ts). */
  text(c: AssetsRequest, file: string): Promise<string> {
    return this.read(c.env.ASSETS, file, (text) => text)
  }

  private async read<T>(assets: Fetcher, file: string, parse: (text: string) => T): Promise<T> {
    if (!this.parsed.has(file)) {
      const value = parse(await readFile(assets, file))
      if (!this.parsed.has(file)) this.parsed.set(file, value)
    }
    return this.parsed.get(file) as T
  }
}

/**
 * The owned tables of this isolate (one copy per `Services`, its store facade). Clearing keeps
 * them: they are fixed for the deployment, so what is held is the same whenever it is read.
 */
export const OWNED_TABLES = cacheKind('owned tables (static assets)', () => new OwnedTables(), () => {})

async function readFile(assets: Fetcher, file: string): Promise<string> {
  const res = await assets.fetch(new Request(`https://assets${OWNED_TABLES_PATH}${file}`))
  // A table missing from the assets is a broken deployment, not an upstream's failure: said as such.
  if (!res.ok) throw new Error(`owned table ${OWNED_TABLES_PATH}${file}: the assets answered HTTP ${res.status}`)
  return res.text()
}
