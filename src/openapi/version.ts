/** The API's version: `/openapi.json`'s `info.version` and the MCP server's. */
export const API_VERSION = '0.1.0'
