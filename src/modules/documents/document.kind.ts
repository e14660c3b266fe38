import { registerEnumType } from 'type-graphql';

/**
 * What kind of file a document is (v3 §4.7 `conditions[document_type]`: spreadsheets, images,
 * documents, pdfs, presentations, others), decided once here from the content type the server sent
 * and, when it said nothing useful, from the file extension. Stored on the row (`kind`) so the
 * condition is an indexed equality, and recomputed whenever the URL changes or a fetch completes.
 */
export enum DocumentKind {
  SPREADSHEET = 'spreadsheet',
  IMAGE = 'image',
  DOCUMENT = 'document',
  PDF = 'pdf',
  PRESENTATION = 'presentation',
  OTHER = 'other',
}
registerEnumType(DocumentKind, {
  name: 'DocumentKind',
  description: 'What kind of file a document is, from the content type its server sent, else from its file extension.',
  valuesConfig: {
    SPREADSHEET: { description: 'Spreadsheets: Excel, OpenDocument spreadsheets, Numbers, CSV and TSV.' },
    IMAGE: { description: 'Images (image/*: PNG, JPEG, GIF, WebP, SVG, ...).' },
    DOCUMENT: { description: 'Text documents: Word, OpenDocument text, Pages, RTF, plain text, Markdown, HTML.' },
    PDF: { description: 'PDF files.' },
    PRESENTATION: { description: 'Presentations: PowerPoint, OpenDocument presentations, Keynote.' },
    OTHER: { description: 'Anything else, and documents whose kind is not known yet.' },
  },
});

/** Extension → [kind, content type]: the one table both the kind and a missing content type come from. */
const EXTENSIONS: Readonly<Record<string, readonly [DocumentKind, string]>> = {
  pdf: [DocumentKind.PDF, 'application/pdf'],
  png: [DocumentKind.IMAGE, 'image/png'],
  jpg: [DocumentKind.IMAGE, 'image/jpeg'],
  jpeg: [DocumentKind.IMAGE, 'image/jpeg'],
  gif: [DocumentKind.IMAGE, 'image/gif'],
  webp: [DocumentKind.IMAGE, 'image/webp'],
  bmp: [DocumentKind.IMAGE, 'image/bmp'],
  tif: [DocumentKind.IMAGE, 'image/tiff'],
  tiff: [DocumentKind.IMAGE, 'image/tiff'],
  svg: [DocumentKind.IMAGE, 'image/svg+xml'],
  heic: [DocumentKind.IMAGE, 'image/heic'],
  avif: [DocumentKind.IMAGE, 'image/avif'],
  ico: [DocumentKind.IMAGE, 'image/vnd.microsoft.icon'],
  xls: [DocumentKind.SPREADSHEET, 'application/vnd.ms-excel'],
  xlsx: [DocumentKind.SPREADSHEET, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  xlsm: [DocumentKind.SPREADSHEET, 'application/vnd.ms-excel.sheet.macroenabled.12'],
  ods: [DocumentKind.SPREADSHEET, 'application/vnd.oasis.opendocument.spreadsheet'],
  numbers: [DocumentKind.SPREADSHEET, 'application/vnd.apple.numbers'],
  csv: [DocumentKind.SPREADSHEET, 'text/csv'],
  tsv: [DocumentKind.SPREADSHEET, 'text/tab-separated-values'],
  ppt: [DocumentKind.PRESENTATION, 'application/vnd.ms-powerpoint'],
  pptx: [DocumentKind.PRESENTATION, 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  pps: [DocumentKind.PRESENTATION, 'application/vnd.ms-powerpoint'],
  ppsx: [DocumentKind.PRESENTATION, 'application/vnd.openxmlformats-officedocument.presentationml.slideshow'],
  odp: [DocumentKind.PRESENTATION, 'application/vnd.oasis.opendocument.presentation'],
  key: [DocumentKind.PRESENTATION, 'application/vnd.apple.keynote'],
  doc: [DocumentKind.DOCUMENT, 'application/msword'],
  docx: [DocumentKind.DOCUMENT, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  odt: [DocumentKind.DOCUMENT, 'application/vnd.oasis.opendocument.text'],
  pages: [DocumentKind.DOCUMENT, 'application/vnd.apple.pages'],
  rtf: [DocumentKind.DOCUMENT, 'application/rtf'],
  txt: [DocumentKind.DOCUMENT, 'text/plain'],
  md: [DocumentKind.DOCUMENT, 'text/markdown'],
  html: [DocumentKind.DOCUMENT, 'text/html'],
  htm: [DocumentKind.DOCUMENT, 'text/html'],
};

/** Content types (the media type alone, lower case) whose kind is not their top-level type's. */
const TYPES: Readonly<Record<string, DocumentKind>> = {
  'application/pdf': DocumentKind.PDF,
  'application/msword': DocumentKind.DOCUMENT,
  'application/rtf': DocumentKind.DOCUMENT,
  'application/vnd.oasis.opendocument.text': DocumentKind.DOCUMENT,
  'application/vnd.apple.pages': DocumentKind.DOCUMENT,
  'application/vnd.ms-excel': DocumentKind.SPREADSHEET,
  'application/vnd.oasis.opendocument.spreadsheet': DocumentKind.SPREADSHEET,
  'application/vnd.apple.numbers': DocumentKind.SPREADSHEET,
  'text/csv': DocumentKind.SPREADSHEET,
  'text/tab-separated-values': DocumentKind.SPREADSHEET,
  'application/vnd.ms-powerpoint': DocumentKind.PRESENTATION,
  'application/vnd.oasis.opendocument.presentation': DocumentKind.PRESENTATION,
  'application/vnd.apple.keynote': DocumentKind.PRESENTATION,
};

/** Content types that say nothing about the file (servers send them for anything). */
const UNINFORMATIVE = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'application/binary',
  'application/unknown',
  'application/x-download',
  'application/force-download',
]);

/** `type/subtype` as RFC 9110 allows it (tokens), at most 255 characters. */
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]{1,127}\/[a-z0-9!#$&^_.+-]{1,127}$/;

/** The media type of a Content-Type header (parameters dropped, lower case), or null when there is none worth keeping. */
export function mediaTypeOf(header: string | null | undefined): string | null {
  if (!header) return null;
  const essence = header.split(';')[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(essence) && !UNINFORMATIVE.has(essence) ? essence : null;
}

/** The lower-case extension of a file name or a URL path's last segment (`report.PDF` → `pdf`), or null. */
export function extensionOf(name: string | null | undefined): string | null {
  if (!name) return null;
  const last = name.split(/[/\\]/).pop() ?? '';
  const dot = last.lastIndexOf('.');
  if (dot <= 0 || dot === last.length - 1) return null;
  const ext = last.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : null;
}

/** The path of a URL, decoded where it can be (for its extension and last segment). */
function pathOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

function kindOfMediaType(type: string): DocumentKind {
  const known = TYPES[type];
  if (known) return known;
  if (type.startsWith('image/')) return DocumentKind.IMAGE;
  if (type.includes('spreadsheetml') || type.startsWith('application/vnd.ms-excel')) return DocumentKind.SPREADSHEET;
  if (type.includes('presentationml') || type.startsWith('application/vnd.ms-powerpoint')) return DocumentKind.PRESENTATION;
  if (type.includes('wordprocessingml') || type.startsWith('application/vnd.ms-word')) return DocumentKind.DOCUMENT;
  if (type.startsWith('text/')) return DocumentKind.DOCUMENT;
  return DocumentKind.OTHER;
}

/** The extension that names a known kind, from the URL's path first, then the title. */
function knownExtension(url: string | null | undefined, title: string | null | undefined): string | null {
  for (const ext of [extensionOf(pathOf(url)), extensionOf(title)]) if (ext && EXTENSIONS[ext]) return ext;
  return null;
}

/**
 * The kind of a document: from its content type when it says something (not octet-stream), else
 * from the extension of its URL's path, else of its title; OTHER when none tells.
 */
export function documentKindOf(contentType: string | null | undefined, url: string | null | undefined, title: string | null | undefined): DocumentKind {
  const type = mediaTypeOf(contentType);
  if (type) {
    const kind = kindOfMediaType(type);
    if (kind !== DocumentKind.OTHER) return kind;
  }
  const ext = knownExtension(url, title);
  return ext ? EXTENSIONS[ext]![0] : DocumentKind.OTHER;
}

/** The content type to store: the server's (when it says something), else the extension's, else octet-stream. */
export function storedContentType(header: string | null | undefined, url: string | null | undefined, title: string | null | undefined): string {
  const type = mediaTypeOf(header);
  if (type) return type;
  const ext = knownExtension(url, title);
  return ext ? EXTENSIONS[ext]![1] : 'application/octet-stream';
}

/** Longest default title taken from a URL (the column holds 255). */
const MAX_TITLE = 255;

/** Text as it may be stored and shown: no control characters, single spaces, at most `max` code points. */
export function cleanText(text: string, max: number): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const points = [...flat];
  return points.length > max ? points.slice(0, max).join('').trim() : flat;
}

/**
 * A document's default title: the last non-empty segment of the URL's path, percent-decoded
 * (kept as sent when it does not decode), without control characters, at most 255 characters;
 * the host name when the path has no segment (`https://example.com/`).
 */
export function titleFromUrl(url: URL): string {
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const raw = segments[segments.length - 1];
  if (raw !== undefined) {
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // a stray `%`: the segment as sent
    }
    const title = cleanText(decoded, MAX_TITLE);
    if (title !== '') return title;
  }
  return cleanText(url.hostname, MAX_TITLE) || 'document';
}
