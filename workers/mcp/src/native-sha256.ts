// SHA-256 with the platform's crypto.subtle: the same lowercase hex as @sextant/format's sha256Hex,
// for a fraction of the portable code's CPU. Used for shard checksums and manifest digests.

export async function nativeSha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
