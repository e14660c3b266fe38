/** Text for HTML element content and quoted attribute values: the five characters that can change the markup, escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON inside a `<script type="application/json">` element: `<` escaped so no string can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** A page's favicon that costs no request (browsers otherwise ask for /favicon.ico). */
export const NO_FAVICON = '<link rel="icon" href="data:,">';
