import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { redactSecret } from '../../../common/crypto/redact-secret.js';

const TABLE = 'mcp_servers';
const COLUMN = 'headers';

export type HeaderMap = Record<string, string>;

/** MCP header values sealed at rest (AAD bound to the row) and shown only in redacted form. */
@Injectable()
export class HeaderSecrets {
  constructor(private readonly box: SecretBox) {}

  seal(rowId: string, headers: HeaderMap): string | null {
    if (Object.keys(headers).length === 0) return null;
    return this.box.encrypt(JSON.stringify(headers), { table: TABLE, rowId, column: COLUMN });
  }

  open(rowId: string, sealed: string | null): HeaderMap {
    if (sealed === null) return {};
    return JSON.parse(this.box.decrypt(sealed, { table: TABLE, rowId, column: COLUMN })) as HeaderMap;
  }

  /** Names kept, values redacted: what every read shows. */
  static redacted(headers: HeaderMap): HeaderMap {
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, redactSecret(value)]));
  }

  /**
   * The submitted headers whose values are given in clear: a value sent back as the redacted form of
   * the stored one of the same name (case-insensitive) is left out, since it is not re-sent.
   */
  static inClear(stored: HeaderMap, submitted: HeaderMap): HeaderMap {
    const redacted = new Map(
      Object.entries(stored).map(([name, value]) => [name.toLowerCase(), redactSecret(value)]),
    );
    return Object.fromEntries(
      Object.entries(submitted).filter(([name, value]) => redacted.get(name.toLowerCase()) !== value),
    );
  }

  /**
   * The headers to store after an edit: a value sent back exactly as its redacted form keeps the stored
   * secret of the same name (case-insensitive); anything else is the new value.
   */
  static merge(stored: HeaderMap, submitted: HeaderMap): HeaderMap {
    const byName = new Map(Object.entries(stored).map(([name, value]) => [name.toLowerCase(), value]));
    return Object.fromEntries(
      Object.entries(submitted).map(([name, value]) => {
        const previous = byName.get(name.toLowerCase());
        return [name, previous !== undefined && value === redactSecret(previous) ? previous : value];
      }),
    );
  }
}

/** Replaces every header value found in a text (an error message from a library) by `[redacted]`. */
export function scrubHeaderValues(text: string, headers: Readonly<HeaderMap>): string {
  let out = text;
  for (const value of Object.values(headers)) {
    if (value.length >= 4) out = out.split(value).join('[redacted]');
  }
  return out;
}
