import { describe, expect, it } from 'vitest'
import { withServer } from './route'

describe('withServer', () => {
  it('names the origin as the one server of the document, keeping the rest as it is', () => {
    const doc = JSON.stringify({ openapi: '3.1.0', info: { title: 't' }, paths: {} })
    expect(JSON.parse(withServer(doc, 'https://api.example.com'))).toEqual({
      servers: [{ url: 'https://api.example.com', description: 'This service' }],
      openapi: '3.1.0',
      info: { title: 't' },
      paths: {},
    })
  })

  it('writes an origin with quotes or backslashes as a JSON string', () => {
    expect(JSON.parse(withServer('{"paths":{}}', 'http://a"b\\\\c')).servers[0].url).toBe('http://a"b\\\\c')
  })
})
