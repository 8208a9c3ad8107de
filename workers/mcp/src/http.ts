// The one error type of the HTTP layer and the one place it becomes a response: JSON
// { error: { code, message, hint } }, with extra headers (WWW-Authenticate, Allow) when the status
// calls for them. Tool failures are not HTTP errors: they are MCP results (see @sextant/mcp).

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, hint: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.hint = hint;
    this.headers = headers;
  }

  toResponse(extraHeaders: Record<string, string> = {}): Response {
    return json(this.status, { error: { code: this.code, message: this.message, hint: this.hint } }, { ...this.headers, ...extraHeaders });
  }
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** The request body, refused with 413 past `maxBytes` whether or not it declared its length. */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new HttpError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes.`,
    'Send one MCP message per request; tool arguments are small (paths, names, a cursor).');
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
