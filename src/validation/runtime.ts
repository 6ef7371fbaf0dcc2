/** Runtime helpers that generated validators call, so they need nothing from ajv. */

/**
 * Length of a string in Unicode code points, as JSON Schema's
 * `minLength`/`maxLength` count it (a surrogate pair counts once).
 */
export function ucs2length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    length++;
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if ((next & 0xfc00) === 0xdc00) i++;
    }
  }
  return length;
}
