import type { Request } from 'express';
import { FacadeInputError } from '../errors/facade-error';
import { checkJsonShape, DEFAULT_PARAM_LIMITS, parseNestedParams } from './params';

/**
 * v3 §1.3: a body is form parameters (`root[attr]=v`) or JSON with the root key; both decode to
 * the same nested object. The raw body was read (size-limited) by the router. An empty body, with
 * any content type, is an empty object (DECISIONS: never reject it).
 */
export function readBody(req: Request): Record<string, unknown> {
  const raw: unknown = req.body;
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : '';
  if (text.trim() === '') return {};
  const type = (req.get('content-type') ?? '').toLowerCase();
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
