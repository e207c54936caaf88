import { ValidateIf } from 'class-validator';

/**
 * For optional body fields: validated when present; `null` is a value (refused unless the field's own
 * validators accept it), only absence means "not given". class-validator's `IsOptional` also skips `null`,
 * which then reached services and the database as a value (a NOT NULL violation: a 500).
 */
export const WhenPresent = () => ValidateIf((_object: object, value: unknown) => value !== undefined);
