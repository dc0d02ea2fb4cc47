import { type TSchema, Type } from 'typebox';

/**
 * Field rules shared by every payload that carries them. `description` states the rule in words:
 * the master quotes it when a value is rejected, and the dashboard shows the same text.
 */
export const PASSWORD_MIN_LENGTH = 6;

export const Password = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: 128,
  description: `at least ${PASSWORD_MIN_LENGTH} and at most 128 characters`,
});

export const Username = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$',
  description: '3 to 32 letters, digits, _ . or -, not starting with . or -',
});

export const Account = Type.String({
  minLength: 1,
  maxLength: 254,
  description: 'a username or email address, at most 254 characters',
});

export const Email = Type.String({
  maxLength: 254,
  pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
  description: 'an email address such as name@example.com',
});

export const Phone = Type.String({
  pattern: '^\\+?[0-9]{5,20}$',
  description: '5 to 20 digits, optionally starting with +',
});

export const Qq = Type.String({
  pattern: '^[1-9][0-9]{4,11}$',
  description: '5 to 12 digits, not starting with 0',
});

export const VerifyCode = Type.String({
  pattern: '^[0-9A-Za-z]{4,8}$',
  description: '4 to 8 letters or digits',
});

export const DisplayName = Type.String({
  maxLength: 64,
  pattern: '^[^\\u0000-\\u001f<>]*$',
  description: 'at most 64 characters, no control characters or < >',
});

/** Ids are 64-bit in the database but read exactly by JSON only up to 2^53 - 1: that is the cap. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

export const Id = Type.Integer({
  minimum: 1,
  maximum: MAX_ID,
  description: `an id: a whole number from 1 to ${MAX_ID}`,
});

/** A reference where 0 has a meaning of its own (every site, system rows). */
export const IdOrZero = Type.Integer({
  minimum: 0,
  maximum: MAX_ID,
  description: `a whole number from 0 to ${MAX_ID}`,
});

export const IdParams = Type.Object({ id: Id });

/**
 * A value or null. Null comes first: the master's body validator coerces types, and would turn a
 * null into 0 or '' for a first branch of another type (a price of 0 instead of "not sold").
 */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([Type.Null(), schema]);
