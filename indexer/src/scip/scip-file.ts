// Reads a SCIP index file (scip.proto's Index, as a SCIP indexer writes it) and checks that it is
// one, so that `indexer build --scip` given anything else fails before the build does any work.
import { readFile } from 'node:fs/promises';
import { fromBinary } from '@bufbuild/protobuf';
import { ioErrorOf, SextantError } from '@sextant/format';
import { IndexSchema, type Index } from './scip_pb.ts';

/** How the manifest's parsers name a SCIP indexer whose index was imported: `scip:<tool>` → its version. */
export const SCIP_PARSER_PREFIX = 'scip:';

export interface ScipFile {
  /** The path it was read from, as given. */
  file: string;
  index: Index;
  /** Metadata.tool_info: the indexer that wrote it. */
  tool: { name: string; version: string };
}

const NOT_SCIP_HINT = 'Pass the index.scip a SCIP indexer wrote (scip-typescript, scip-python, scip-go, scip-java, rust-analyzer scip), whole: a truncated or re-encoded copy cannot be read.';

export async function readScipFile(file: string): Promise<ScipFile> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw ioErrorOf(error) ?? new SextantError('FILE_NOT_FOUND', `Cannot read the SCIP index ${file}: ${(error as Error).message}.`,
      'Pass the path of an index.scip file, such as the one `scip-typescript index` writes.', { file });
  }
  return decodeScip(file, bytes);
}

/** The Index in `bytes`; an INVALID_ARGUMENT naming `file` when they are not one. */
export function decodeScip(file: string, bytes: Uint8Array): ScipFile {
  const notScip = (why: string) => new SextantError('INVALID_ARGUMENT', `${file} is not a SCIP index: ${why}.`, NOT_SCIP_HINT, { file });
  if (bytes.length === 0) throw notScip('the file is empty');
  let index: Index;
  try {
    index = fromBinary(IndexSchema, bytes);
  } catch (error) {
    // A text file, random bytes or a file cut short fail here ("premature EOF", "illegal tag").
    throw notScip(`its bytes do not decode as one (${(error as Error).message})`);
  }
  // Another protobuf message may decode without error: one of SCIP has its metadata and no unknown fields.
  if (index.$unknown?.length || index.metadata?.$unknown?.length) throw notScip('it holds fields scip.proto does not define');
  const metadata = index.metadata;
  if (!metadata || (!metadata.toolInfo?.name && !metadata.projectRoot)) throw notScip('it has no metadata naming the indexer or the project root');
  return { file, index, tool: { name: metadata.toolInfo?.name || 'unknown', version: metadata.toolInfo?.version ?? '' } };
}
