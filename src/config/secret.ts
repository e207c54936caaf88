import { inspect } from 'node:util';

/**
 * A configuration value that must never reach a log, an error message or a JSON body.
 * The clear value is only available through `reveal()`, so every use of it is greppable.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return '[secret]';
  }

  toJSON(): string {
    return '[secret]';
  }

  [inspect.custom](): string {
    return '[secret]';
  }
}
