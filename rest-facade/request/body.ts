import type { Request } from 'express';
import busboy from 'busboy';
import { FacadeInputError } from '../errors/facade-error';
import { checkJsonShape, DEFAULT_PARAM_LIMITS, parseNestedParams } from './params';

const MAX_MULTIPART_FIELD_BYTES = 256 * 1024;

/**
 * multipart/form-data carries the same `root[attr]` fields as a urlencoded form (some clients send
 * every form that way). Files are not taken here: documents are fetched from their `url` (v3 §2.7).
 */
function readMultipart(req: Request, raw: Buffer): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fields: DEFAULT_PARAM_LIMITS.maxParams, fieldSize: MAX_MULTIPART_FIELD_BYTES, files: 0, parts: DEFAULT_PARAM_LIMITS.maxParams },
      });
    } catch {
      reject(new FacadeInputError('body', 'is not valid multipart/form-data (no boundary)', 400));
      return;
    }
    const pairs: Array<[string, string]> = [];
    let refused: FacadeInputError | null = null;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) refused ??= new FacadeInputError(name, `is too large (maximum is ${MAX_MULTIPART_FIELD_BYTES} bytes)`, 413);
      else pairs.push([name, value]);
    });
    // Stryker disable next-line all: unreachable, busboy emits no 'file' with files: 0 (filesLimit instead); kept in case the limit changes
    parser.on('file', (_name, stream) => stream.resume());
    // Stryker disable next-line all: unreachable while parts = fields: busboy stops at partsLimit first
    parser.on('fieldsLimit', () => (refused ??= new FacadeInputError('body', `has too many parameters (maximum is ${DEFAULT_PARAM_LIMITS.maxParams})`, 413)));
    parser.on('partsLimit', () => (refused ??= new FacadeInputError('body', `has too many parts (maximum is ${DEFAULT_PARAM_LIMITS.maxParams})`, 413)));
    parser.on('error', () => reject(new FacadeInputError('body', 'is not valid multipart/form-data', 400)));
    parser.on('close', () => {
      if (refused) reject(refused);
      else {
        try {
          resolve(parseNestedParams(pairs, DEFAULT_PARAM_LIMITS));
        } catch (error) {
          reject(error);
        }
      }
    });
    parser.end(raw);
  });
}

/**
 * v3 §1.3: a body is form parameters (`root[attr]=v`, urlencoded or multipart) or JSON with the
 * root key; all decode to the same nested object. The raw body was read (size-limited) by the
 * router. An empty body, with any content type, is an empty object (DECISIONS: never reject it).
 */
export async function readBody(req: Request): Promise<Record<string, unknown>> {
  const raw: unknown = req.body;
  const buffer = Buffer.isBuffer(raw) ? raw : Buffer.from(typeof raw === 'string' ? raw : '', 'utf8');
  if (buffer.length === 0) return {};
  const type = (req.get('content-type') ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) return readMultipart(req, buffer);
  const text = buffer.toString('utf8');
  if (text.trim() === '') return {};
  const looksJson = type.includes('json') || (!type.includes('form') && /^\s*[{[]/.test(text));
  if (looksJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new FacadeInputError('body', 'is not valid JSON', 400);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FacadeInputError('body', 'must be a JSON object', 400);
    return checkJsonShape(parsed, DEFAULT_PARAM_LIMITS) as Record<string, unknown>;
  }
  return parseNestedParams(new URLSearchParams(text), DEFAULT_PARAM_LIMITS);
}
