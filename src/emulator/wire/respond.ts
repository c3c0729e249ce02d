/** Response builders shared by the wire handlers: bodies as the upstreams send them. */
import { encodeGbk } from './gbk'

/** UTF-8 JSON, serialised as given (key order is the wire order). */
export function jsonResponse(body: unknown, contentType = 'application/json; charset=UTF-8'): Response {
  return new Response(JSON.stringify(body), { headers: { 'content-type': contentType } })
}

/** UTF-8 text (JSONP, scripts). */
export function textResponse(text: string, contentType: string, status = 200): Response {
  return new Response(text, { status, headers: { 'content-type': contentType } })
}

/** GBK-encoded text, as Tencent `qt` and Sina `hq` send quotes. */
export function gbkResponse(text: string, contentType: string): Response {
  return new Response(encodeGbk(text), { headers: { 'content-type': contentType } })
}

/** The nginx 404 page every upstream front end answers for an unknown path. */
export function notFound(): Response {
  return textResponse('<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n', 'text/html', 404)
}
