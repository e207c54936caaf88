import { truncate } from '../text/truncate.js';

/**
 * Why an archive was refused. `src/common` owns no error codes: each caller maps a reason to its own
 * module's code (OCR: `ocr.archive_too_large`; skills: its `skills.*` codes).
 */
export type ArchiveRefusalReason =
  | 'path_unsafe'
  | 'symlink'
  | 'too_many_files'
  | 'too_many_entries'
  | 'too_deep'
  | 'too_large'
  | 'ratio'
  | 'duplicate'
  | 'damaged';

export interface ArchiveRefusalDetails {
  /** The entry concerned, as stored (cut to 300 characters). */
  path?: string;
  /** The limit that was passed, in words (`2000 entries`, `104857600 bytes`). */
  limit?: string;
}

/** An archive refused before anything was written anywhere. */
export class ArchiveRefusal extends Error {
  readonly details: ArchiveRefusalDetails;

  constructor(
    readonly reason: ArchiveRefusalReason,
    message: string,
    details: ArchiveRefusalDetails = {},
  ) {
    super(message);
    this.name = 'ArchiveRefusal';
    this.details = details.path === undefined ? details : { ...details, path: truncate(details.path) };
  }

  /** A limit passed (`too_many_entries`, `too_large`, `ratio`, …); `limit` says which in words. */
  static overLimit(reason: ArchiveRefusalReason, limit: string, path?: string): ArchiveRefusal {
    return new ArchiveRefusal(
      reason,
      `The archive exceeds ${limit}.`,
      path === undefined ? { limit } : { limit, path },
    );
  }
}

/** A ZIP that cannot be read as one (bad structure, unsupported feature): reason `damaged`. */
export class ZipFormatError extends ArchiveRefusal {
  constructor(problem: string) {
    super('damaged', problem);
    this.name = 'ZipFormatError';
  }
}
