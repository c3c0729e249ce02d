/**
 * What `ajv` and `ajv-formats` resolve to in the Worker's bundle (wrangler.toml [alias]). The MCP
 * SDK's Server imports its default JSON Schema validator, built on ajv, whether or not a validator
 * is passed in; src/mcp/server.ts passes its own, so ajv (with fast-uri and ajv-formats, some
 * 135 KB minified) would be dead weight. Constructing it here fails loudly instead.
 */
export default class AjvLeftOut {
  constructor() {
    throw new Error('ajv is not in this bundle: pass the MCP Server a jsonSchemaValidator (src/mcp/server.ts)')
  }
}
